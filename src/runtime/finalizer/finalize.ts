import type { KubeObject } from '../api/kube-object.ts';
import { isNotFound } from '../client/api-error.ts';
import type { Client } from '../client/client.ts';
import { kindRegistry } from '../client/kind.ts';
import { objectKey } from '../client/object-key.ts';
import { mergePatch } from '../client/patch.ts';
import { retryOnConflict } from '../client/retry-on-conflict.ts';
import type { EventRecorder } from '../events/event-recorder.ts';
import { errorMessage } from '../log/error-message.ts';
import { requeueOf } from '../reconcile/requeue-decision.ts';
import { done, requeue, type Result } from '../reconcile/result.ts';
import { containsFinalizer, isBeingDeleted } from './finalizers.ts';

/** What a reconcile does around a finalizer. */
export interface FinalizerSteps {
  /** Runs while the object lives, once the finalizer is on it: the normal reconcile. */
  apply(): Promise<Result>;
  /**
   * Runs once the object is being deleted: releases what the object holds outside Kubernetes. It
   * must be idempotent (a retry after a failed write runs it again). The finalizer is removed when
   * it returns `done()`; a result asking to requeue (`requeueAfter(0)` included, see `requeueOf`)
   * keeps the finalizer and is returned, and a throw keeps it and fails the reconcile, to be
   * retried with backoff.
   */
  cleanup(): Promise<Result>;
  /** When given, a failing cleanup is also reported as a Warning event on the object. Default: none. */
  recorder?: EventRecorder;
}

/**
 * Runs a reconcile under a finalizer: adds `finalizerName` before `apply` runs (so nothing is
 * created outside Kubernetes that deletion could miss), and on deletion runs `cleanup` then removes
 * the finalizer. Finalizer writes are merge patches of `metadata.finalizers` alone, guarded by the
 * resourceVersion and retried on conflict with a fresh read, so other writers cannot keep the
 * object stuck Terminating once cleanup succeeded, and in-memory edits of `obj` are never written
 * by accident. `obj`'s finalizers and resourceVersion are updated in place.
 *
 * @example
 * ```ts
 * return finalize(this.client, app, 'demo.example.org/cleanup', {
 *   apply: async () => { await ensureBucket(app); return done(); },
 *   cleanup: async () => { await deleteBucket(app); return done(); },
 * });
 * ```
 */
export async function finalize(
  client: Client,
  obj: KubeObject,
  finalizerName: string,
  steps: FinalizerSteps,
): Promise<Result> {
  if (!isBeingDeleted(obj)) {
    if (!containsFinalizer(obj, finalizerName)) {
      await patchFinalizers(client, obj, (finalizers) =>
        finalizers.includes(finalizerName) ? undefined : [...finalizers, finalizerName],
      );
    }
    return canonical(await steps.apply());
  }
  if (!containsFinalizer(obj, finalizerName)) return done();
  const result = await cleanupReporting(obj, steps);
  if (requeueOf(result).kind !== 'done') return canonical(result);
  await patchFinalizers(client, obj, (finalizers) =>
    finalizers.includes(finalizerName) ? finalizers.filter((f) => f !== finalizerName) : undefined,
  );
  return result;
}

/**
 * The result in the form every reader of Result acts on alike: an immediate requeue is spelled
 * `requeue()`, so it is requeued even by code that reads only a positive `requeueAfter` as one.
 */
function canonical(result: Result): Result {
  return requeueOf(result).kind === 'backoff' ? requeue() : result;
}

async function cleanupReporting(obj: KubeObject, steps: FinalizerSteps): Promise<Result> {
  try {
    return await steps.cleanup();
  } catch (err) {
    const message = errorMessage(err);
    steps.recorder?.event(obj, 'Warning', 'CleanupFailed', 'Finalize', `cleanup failed: ${message}`);
    throw err;
  }
}

/**
 * Writes `change(finalizers)` (undefined: no change needed) with the object's resourceVersion as
 * precondition, reading the object again after a conflict. A vanished object needs no change.
 */
async function patchFinalizers(
  client: Client,
  obj: KubeObject,
  change: (finalizers: readonly string[]) => string[] | undefined,
): Promise<void> {
  let current: KubeObject | undefined = obj;
  let stale = false;
  await retryOnConflict(async () => {
    if (stale) current = await client.direct().get(kindRegistry.kindOf(obj), objectKey(obj));
    stale = true;
    const next = current && change(current.metadata?.finalizers ?? []);
    if (current === undefined || next === undefined) return;
    const body = { metadata: { finalizers: next, resourceVersion: current.metadata?.resourceVersion } };
    try {
      current = await client.patch(current, mergePatch(body));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      current = undefined;
    }
  });
  obj.metadata = { ...obj.metadata, finalizers: current?.metadata?.finalizers ?? [] };
  if (current?.metadata?.resourceVersion) obj.metadata.resourceVersion = current.metadata.resourceVersion;
}
