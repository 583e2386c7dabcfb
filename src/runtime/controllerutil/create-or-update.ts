import { isDeepStrictEqual } from 'node:util';
import { asWritten } from '../api/format-time.ts';
import type { Json, JsonInput } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import { cloneJson } from '../cache/copy-on-read.ts';
import { isAlreadyExists } from '../client/api-error.ts';
import type { Reader } from '../client/api-reader.ts';
import type { Client } from '../client/client.ts';
import type { Kind } from '../client/kind.ts';
import { objectRef, type ObjectKey } from '../client/object-key.ts';
import { mergePatchFrom } from '../client/patch.ts';
import type { MutateFn, MutationOutcome } from './operation-result.ts';

/**
 * Reads the object, lets `mutate` set its desired state, and creates it when missing or updates it
 * when `mutate` changed it, as controller-runtime's CreateOrUpdate. An update sends the whole
 * object with its resourceVersion, so a concurrent change fails with a Conflict (retry the
 * reconcile) instead of being overwritten. A create answered AlreadyExists (the cache had not shown
 * the object yet: someone else's create, or a child still on its way from another shard) reads it
 * from the API server and updates it instead. `mutate` receives the object as `JsonInput<T>` (see
 * {@link MutateFn}); the outcome's object is the API server's JSON, `Json<T>`.
 *
 * @example
 * ```ts
 * const { object: deploy, operation } = await createOrUpdate(client, DeploymentKind, { namespace, name }, (d) => {
 *   setControllerReference(app, d);
 *   d.spec = deploymentSpecFor(app);
 * });
 * ```
 */
export async function createOrUpdate<T extends KubeObject>(
  client: Client,
  kind: Kind<T>,
  key: ObjectKey,
  mutate: MutateFn<T>,
): Promise<MutationOutcome<Json<T>>> {
  let { existing, desired } = await readAndMutate(client, kind, key, mutate);
  if (!existing) {
    const created = await createUnlessCached(client, desired);
    if (created) return { object: answerOf(kind, created), operation: 'created' };
    ({ existing, desired } = await readAndMutate(client.direct(), kind, key, mutate));
    if (!existing) throw new Error(`${kind.kind} ${key.name} already exists, yet the API server has none`);
  }
  const unchanged = unchangedObject(existing, desired);
  if (unchanged) return { object: unchanged, operation: 'unchanged' };
  return { object: answerOf(kind, await client.update(desired)), operation: 'updated' };
}

/**
 * Creates `desired`; undefined when it already exists though the cache had none: the cache lags
 * behind a create of someone else's, or behind an object handed over from another shard (its
 * label, which brings it into this shard's cache, may land after the owner's), and the caller
 * reads it from the API server instead of failing the reconcile.
 */
async function createUnlessCached(client: Client, desired: KubeObject): Promise<KubeObject | undefined> {
  try {
    return await client.create(desired);
  } catch (err) {
    if (isAlreadyExists(err)) return undefined;
    throw err;
  }
}

/**
 * The caller's own copy of the object read, when `mutate` changed nothing: the same JSON, where
 * `mutate` may have set a Date (a client-node model's) for a time the read object holds as its RFC
 * 3339 string. The read may be the cache's frozen object; the mutated copy is the caller's when it
 * holds the very same JSON. The JSON copy is made only when the objects differ, so the common
 * unchanged case costs one comparison.
 */
function unchangedObject<T>(read: T, mutated: unknown): T | undefined {
  if (isDeepStrictEqual(read, mutated)) return mutated as T;
  return isDeepStrictEqual(read, asWritten(mutated)) ? cloneJson(read) : undefined;
}

/**
 * As {@link createOrUpdate}, but changes go out as merge patches: one for the object and, when
 * `mutate` changed `status`, one for the status subresource, as controller-runtime's
 * CreateOrPatch. A patch touches only what changed, so fields set by others are kept.
 */
export async function createOrPatch<T extends KubeObject & { status?: unknown }>(
  client: Client,
  kind: Kind<T>,
  key: ObjectKey,
  mutate: MutateFn<T>,
): Promise<MutationOutcome<Json<T>>> {
  let read = await readAndMutate(client, kind, key, mutate);
  if (!read.existing) {
    const { status, ...withoutStatus }: WithStatus = read.desired;
    let created = await createUnlessCached(client, withoutStatus);
    if (created) {
      // The API server ignores status on create; write it through the subresource.
      if (status !== undefined)
        created = await client.status().patch(created, mergePatchFrom({}, { status }));
      return { object: answerOf(kind, created), operation: 'created' };
    }
    read = await readAndMutate(client.direct(), kind, key, mutate);
  }
  // Split by status below, which a generic Json<T> does not let TypeScript see: typed as its bound.
  const existing: WithStatus | undefined = read.existing;
  const desired: WithStatus = read.desired;
  if (!existing) throw new Error(`${kind.kind} ${key.name} already exists, yet the API server has none`);
  const unchanged = unchangedObject(existing, desired);
  if (unchanged) return { object: answerOf(kind, unchanged), operation: 'unchanged' };
  const { status: oldStatus, ...oldRest } = existing;
  // As written, so that a Date standing for the time read is no change and no patch.
  const { status: newStatus, ...newRest } = asWritten(desired);
  const specChanged = !isDeepStrictEqual(oldRest, newRest);
  const statusChanged = !isDeepStrictEqual(oldStatus, newStatus);
  let object: KubeObject = existing;
  if (specChanged) object = await client.patch(existing, mergePatchFrom(oldRest, newRest));
  if (statusChanged)
    object = await client
      .status()
      .patch(object, mergePatchFrom({ status: oldStatus }, { status: newStatus }));
  return { object: answerOf(kind, object), operation: operationOf(specChanged, statusChanged) };
}

/** An object of a kind with a status, as createOrPatch splits it. */
type WithStatus = KubeObject & { status?: unknown };

/** An object of `kind` as read or as the API server answered a write of it: that kind's JSON. */
function answerOf<T extends KubeObject>(_kind: Kind<T>, answer: KubeObject): Json<T> {
  return answer as Json<T>;
}

function operationOf(specChanged: boolean, statusChanged: boolean): MutationOutcome<unknown>['operation'] {
  if (specChanged && statusChanged) return 'updatedStatus';
  return specChanged ? 'updated' : 'updatedStatusOnly';
}

/** The object as read (undefined when missing) and the mutated copy of it (or of a new one). */
async function readAndMutate<T extends KubeObject>(
  client: Reader,
  kind: Kind<T>,
  key: ObjectKey,
  mutate: MutateFn<T>,
): Promise<{ existing: Json<T> | undefined; desired: JsonInput<T> }> {
  // The cache's own object, and one copy of it to mutate: a copy of a copy was 2 % of an
  // operator's CPU (structuredClone before that, another 2 %).
  const existing = await client.get(kind, key, { unsafeDisableDeepCopy: true });
  const desired: JsonInput<T> = existing ? cloneJson(existing) : objectRef(kind, key);
  await mutateChecked(desired, key, mutate);
  return { existing, desired };
}

async function mutateChecked<T extends KubeObject>(
  obj: JsonInput<T>,
  key: ObjectKey,
  mutate: MutateFn<T>,
): Promise<void> {
  await mutate(obj);
  const namespace = obj.metadata?.namespace ?? '';
  if (obj.metadata?.name !== key.name || namespace !== (key.namespace ?? namespace)) {
    throw new Error(
      `the mutate function changed the object's name or namespace (want ${key.namespace ?? ''}/${key.name}); set them through the key instead`,
    );
  }
}
