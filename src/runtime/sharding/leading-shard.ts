import type { Client } from '../client/client.ts';
import { LeaseKind } from '../client/kinds.ts';
import { HOLDER_PROCESS_ANNOTATION, RING_LABEL } from './shard-labels.ts';

/**
 * The shard whose process holds the leader Lease `leaderElectionId`, and so runs the sharder: the
 * leader Lease names a process (host name and a random id), which each shard Lease of `ring` marks
 * on its holder. Undefined while no shard's process leads.
 */
export async function leadingShard(
  client: Client,
  leaseNamespace: string,
  leaderElectionId: string,
  ring: string,
): Promise<string | undefined> {
  const leader = await client.direct().get(LeaseKind, { namespace: leaseNamespace, name: leaderElectionId });
  const process = leader?.spec?.holderIdentity;
  if (!process) return undefined;
  const shards = await client
    .direct()
    .listAll(LeaseKind, { namespace: leaseNamespace, labelSelector: `${RING_LABEL}=${ring}` });
  return shards.find((lease) => lease.metadata?.annotations?.[HOLDER_PROCESS_ANNOTATION] === process)
    ?.metadata?.name;
}
