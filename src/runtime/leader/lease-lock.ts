import type { V1Lease, V1ObjectMeta } from '@kubernetes/client-node';
import type { Json } from '../api/json.ts';
import { MicroTimeDate } from '../api/micro-time-date.ts';
import type { RestConfigSource } from '../config/rest-config-source.ts';
import { Client, newClient } from '../client/client.ts';
import { LeaseKind } from '../client/kinds.ts';
import type { LeaderElectionRecord, VersionedRecord } from './leader-election-record.ts';

/**
 * Where the leader election record lives. Writes carry the resourceVersion that was read, so two
 * candidates racing for the lease cannot both win (optimistic concurrency, as client-go's
 * resourcelock). Every call gives up when `signal` aborts.
 */
export interface LeaseLock {
  /** `namespace/name` of the lock, for logs and the metric label. */
  readonly description: string;
  /** The current record, or undefined when the lock does not exist yet. */
  get(signal: AbortSignal): Promise<VersionedRecord | undefined>;
  create(record: LeaderElectionRecord, signal: AbortSignal): Promise<VersionedRecord>;
  /** Fails (with a 409 Conflict) when the lock changed since `resourceVersion` was read. */
  update(
    record: LeaderElectionRecord,
    resourceVersion: string,
    signal: AbortSignal,
  ): Promise<VersionedRecord>;
}

/** What else a {@link leaseLock} writes. */
export interface LeaseLockOptions {
  /** Labels the Lease carries (a shard's ring, say); others' labels on it are kept. Default: none. */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Every candidate writes this `holder` as the Lease's holderIdentity (a shard's name, which the
   * sharding protocol wants there) and its own identity in the annotation `mark`; reads report that
   * mark as the holder. Candidates of one holder name are told apart, so only one of them leads.
   * A Lease held under that name without the mark (written by another program) reads as held by
   * the name itself, which no candidate's identity equals; so does one that carries this
   * candidate's mark but was renewed since by another writer, which kept the annotations as it read
   * them (an older version of this runtime, client-go's LeaseLock, the external sharding project).
   * Default: the candidate's identity is the holderIdentity.
   */
  readonly sharedHolder?: {
    readonly holder: string;
    readonly mark: string;
    /**
     * An annotation each write also sets to the renewTime it writes, so that a reader can tell
     * whether the marked candidate renewed the Lease last (on its own clock). Default: none.
     */
    readonly renewTimeMark?: string;
  };
}

/**
 * A LeaseLock on the coordination.k8s.io/v1 Lease `namespace/name`, read and written through the
 * runtime client (reads always go to the API server, never a cache).
 *
 * @example
 * ```ts
 * const lock = leaseLock(kubeConfig, 'webapp-system', 'webapp-operator-leader');
 * ```
 */
export function leaseLock(
  source: RestConfigSource | Client,
  namespace: string,
  name: string,
  options: LeaseLockOptions = {},
): LeaseLock {
  const client = source instanceof Client ? source : newClient({ kubeConfig: source });
  const key = { namespace, name };
  // The labels and annotations last read: an update replaces the whole Lease, and must keep what
  // others wrote on it (the sharder's state label, a shard's published hash ranges).
  let read: Pick<V1ObjectMeta, 'labels' | 'annotations'> = {};
  const shared = options.sharedHolder;
  const metadataFor = (record: LeaderElectionRecord): Pick<V1ObjectMeta, 'labels' | 'annotations'> => {
    const labels = { ...read.labels, ...options.labels };
    const annotations = Object.fromEntries(
      Object.entries(read.annotations ?? {}).filter(
        ([name]) => name !== shared?.mark && name !== shared?.renewTimeMark,
      ),
    );
    // A released Lease names no process.
    if (shared && record.holderIdentity !== '') {
      annotations[shared.mark] = record.holderIdentity;
      if (shared.renewTimeMark !== undefined)
        annotations[shared.renewTimeMark] = new MicroTimeDate(record.renewTime).toISOString();
    }
    return {
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    };
  };
  const specFor = (record: LeaderElectionRecord): V1Lease['spec'] =>
    leaseSpec(shared && record.holderIdentity !== '' ? { ...record, holderIdentity: shared.holder } : record);
  // This candidate's writes under the shared holder: its mark, what its last write that succeeded
  // got, and the renew times of every write sent since, whose answers may have been lost (a
  // timeout) though the server took them: a later refused write must not hide an earlier one that
  // landed.
  const own = { mark: '', resourceVersion: '', renewTime: Number.NaN, sentRenewTimes: new Set<number>() };
  const noteSent = (record: LeaderElectionRecord): void => {
    if (!shared || record.holderIdentity === '') return;
    own.mark = record.holderIdentity;
    // Bounded: the elector writes at most once per retry period, and a confirmed write clears them.
    if (own.sentRenewTimes.size >= MAX_UNCONFIRMED_WRITES) {
      own.sentRenewTimes.delete(own.sentRenewTimes.values().next().value as number);
    }
    // As the Lease carries it: a Date keeps whole milliseconds.
    own.sentRenewTimes.add(new Date(record.renewTime).getTime());
  };
  /**
   * Whether this candidate's mark on the Lease as read is still its own renewal: the Lease it
   * wrote (others' labels and annotations aside), or a write whose answer was lost. Otherwise a
   * writer that keeps annotations as it reads them (an older version of this runtime, client-go's
   * LeaseLock, the external sharding project's shard) renewed it since, under the same name.
   */
  const renewedHere = ({ resourceVersion, record }: VersionedRecord): boolean =>
    resourceVersion === own.resourceVersion ||
    record.renewTime === own.renewTime ||
    own.sentRenewTimes.has(record.renewTime);
  const recordOf = (lease: Json<V1Lease>): VersionedRecord => {
    const answer = versioned(lease);
    if (!shared || answer.record.holderIdentity !== shared.holder) return answer;
    const mark = lease.metadata?.annotations?.[shared.mark];
    // Another process's mark reads as that process; this one's, renewed by another, as the name.
    const foreign = mark === undefined || (mark === own.mark && !renewedHere(answer));
    return { ...answer, record: { ...answer.record, holderIdentity: foreign ? shared.holder : mark } };
  };
  const noteWritten = (lease: Json<V1Lease>): VersionedRecord => {
    const answer = versioned(lease);
    if (shared && answer.record.holderIdentity === shared.holder) {
      own.resourceVersion = answer.resourceVersion;
      own.renewTime = answer.record.renewTime;
      own.sentRenewTimes.clear();
    }
    return recordOf(lease);
  };
  return {
    description: `${namespace}/${name}`,
    get: async (signal) => {
      const lease = await client.direct().get(LeaseKind, key, { signal });
      read = {
        ...(lease?.metadata?.labels ? { labels: lease.metadata.labels } : {}),
        ...(lease?.metadata?.annotations ? { annotations: lease.metadata.annotations } : {}),
      };
      return lease && recordOf(lease);
    },
    create: async (record, signal) => {
      const body: V1Lease = {
        apiVersion: LeaseKind.apiVersion,
        kind: LeaseKind.kind,
        metadata: { ...key, ...metadataFor(record) },
        spec: specFor(record),
      };
      noteSent(record);
      return noteWritten(await client.create(body, { signal }));
    },
    update: async (record, resourceVersion, signal) => {
      const body: V1Lease = {
        apiVersion: LeaseKind.apiVersion,
        kind: LeaseKind.kind,
        metadata: { ...key, resourceVersion, ...metadataFor(record) },
        spec: specFor(record),
      };
      noteSent(record);
      return noteWritten(await client.update(body, { signal }));
    },
  };
}

/**
 * How many renew times sent without a confirmed answer a lock remembers: far more than the
 * renewals one renew deadline allows, so none that may have landed is forgotten while it matters.
 */
const MAX_UNCONFIRMED_WRITES = 64;

function leaseSpec(record: LeaderElectionRecord): V1Lease['spec'] {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    acquireTime: new MicroTimeDate(record.acquireTime),
    renewTime: new MicroTimeDate(record.renewTime),
    leaseTransitions: record.leaderTransitions,
  };
}

/**
 * The record a Lease holds as written, for a reader that watches it (a candidate timing its next
 * attempt): no shared holder's mark is read.
 */
export function leaseRecordOf(lease: Json<V1Lease>): LeaderElectionRecord {
  return versioned(lease).record;
}

/** The record of a Lease as read: its MicroTimes are RFC 3339 strings. */
function versioned(lease: Json<V1Lease>): VersionedRecord {
  const spec = lease.spec ?? {};
  return {
    resourceVersion: lease.metadata?.resourceVersion ?? '',
    record: {
      holderIdentity: spec.holderIdentity ?? '',
      leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
      acquireTime: spec.acquireTime ? Date.parse(spec.acquireTime) : 0,
      renewTime: spec.renewTime ? Date.parse(spec.renewTime) : 0,
      leaderTransitions: spec.leaseTransitions ?? 0,
    },
  };
}
