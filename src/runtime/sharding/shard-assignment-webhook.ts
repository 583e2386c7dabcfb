import type { KubeObject } from '../api/kube-object.ts';
import type { JsonPatchOperation } from '../client/patch.ts';
import type { AdmissionHandler, AdmissionRequest } from '../webhook/admission-review.ts';
import { allowed, patched } from '../webhook/admission-responses.ts';
import { escapePointerToken } from '../webhook/json-diff.ts';
import type { HashRing } from './hash-ring.ts';
import { controllerOf, controllerRingKeyOf, ringKeyOf } from './ring-key.ts';
import { ringKindOfOwner, type RingKind } from './ring-kind.ts';
import { shardLabel } from './shard-labels.ts';

/** What the shard-assignment webhook of a ring assigns with. */
export interface ShardAssignmentOptions {
  readonly ring: string;
  /** The ring's kinds, read at each request: controllers may be added after the server started. */
  readonly kinds: () => readonly RingKind[];
  /** The ring as this replica sees it now. */
  readonly shards: () => HashRing;
}

/** `/assign-shard-webapp`: where every replica's webhook server serves ring `webapp`'s assignments. */
export function shardAssignmentPath(ring: string): string {
  return `/assign-shard-${ring}`;
}

/**
 * Labels each object of the ring's kinds with its shard as it is created, as the external
 * project's sharder webhook does: the object is stored already assigned, so no shard waits for
 * the sharder's patch, nor does the API server take a second write. An object of a kind the ring's
 * objects control goes where its controlling owner hashes. Anything else is admitted unchanged,
 * for the sharder to label: a name still to be generated (generateName: the key is not known
 * yet), an object of no ring kind, or a ring without a live shard.
 */
export function shardAssignmentHandler(options: ShardAssignmentOptions): AdmissionHandler {
  const label = shardLabel(options.ring);
  return (req) => {
    const obj = req.object;
    if (req.operation !== 'CREATE' || !obj || obj.metadata?.labels?.[label] !== undefined)
      return Promise.resolve(allowed());
    const key = keyOf(options.kinds(), req, obj);
    const shard = key === undefined ? undefined : options.shards().shardFor(key);
    if (shard === undefined) return Promise.resolve(allowed());
    const op: JsonPatchOperation = obj.metadata?.labels
      ? { op: 'add', path: `/metadata/labels/${escapePointerToken(label)}`, value: shard }
      : { op: 'add', path: '/metadata/labels', value: { [label]: shard } };
    return Promise.resolve(patched([op]));
  };
}

/** The ring key of the created object, named and in the request's namespace; undefined when none. */
function keyOf(kinds: readonly RingKind[], req: AdmissionRequest, obj: KubeObject): string | undefined {
  const name = obj.metadata?.name || req.name;
  if (!name) return undefined;
  const named = {
    ...obj,
    metadata: { ...obj.metadata, name, namespace: obj.metadata?.namespace || req.namespace },
  };
  const own = kinds.find((k) => k.kind.group === req.kind.group && k.kind.kind === req.kind.kind);
  if (own) return ringKeyOf(own.kind, named);
  const ref = controllerOf(named);
  const owner = ref && ringKindOfOwner(kinds, ref.apiVersion, ref.kind);
  if (!owner?.controlled.some((c) => c.group === req.kind.group && c.kind === req.kind.kind))
    return undefined;
  return controllerRingKeyOf(named, owner.kind);
}
