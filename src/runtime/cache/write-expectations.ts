import type { KubernetesObject } from '@kubernetes/client-node';
import { isAtOrAfter } from './resource-version.ts';

/** A write the cache has yet to show: the resourceVersion it produced, or the uid it deleted. */
interface Expectation {
  readonly resourceVersion: string | undefined;
  readonly deletedUid: string | undefined;
  readonly deleted: boolean;
}

/** What an expectation is checked against: the informer's stored object and how far it has read. */
export interface ExpectationView {
  get(key: string): KubernetesObject | undefined;
  /** The resourceVersion up to which the scope holding `key` has delivered every change. */
  progressOf(key: string): string | undefined;
}

/**
 * The client's writes an informer has not shown yet, for read-your-writes. An entry is met once
 * the stored object is at or after the written resourceVersion, or the informer has read past it
 * (the object may have changed or gone since); a delete is met once the key is gone or holds
 * another uid. Met entries are dropped as events arrive, so the map holds only writes in flight.
 */
export class WriteExpectations {
  readonly #pending = new Map<string, Expectation>();

  get size(): number {
    return this.#pending.size;
  }

  note(key: string, answer: KubernetesObject, deleted: boolean): void {
    this.#pending.set(key, {
      resourceVersion: answer.metadata?.resourceVersion,
      deletedUid: answer.metadata?.uid,
      deleted,
    });
  }

  /** Whether the write to `key` (if any) is visible; drops it when it is. */
  settle(key: string, view: ExpectationView): boolean {
    const expectation = this.#pending.get(key);
    if (!expectation) return true;
    if (!isMet(expectation, view.get(key), view.progressOf(key))) return false;
    this.#pending.delete(key);
    return true;
  }

  /** Whether every noted write is visible (those in `namespace` only, when given); drops those that are. */
  settleAll(view: ExpectationView, namespace?: string): boolean {
    let all = true;
    for (const key of this.#pending.keys()) {
      if (namespace !== undefined && !key.startsWith(`${namespace}/`)) continue;
      all = this.settle(key, view) && all;
    }
    return all;
  }
}

function isMet(
  expectation: Expectation,
  stored: KubernetesObject | undefined,
  progress: string | undefined,
): boolean {
  if (expectation.deleted)
    return (
      !stored || (expectation.deletedUid !== undefined && stored.metadata?.uid !== expectation.deletedUid)
    );
  const written = expectation.resourceVersion;
  if (written === undefined) return true;
  return isAtOrAfter(stored?.metadata?.resourceVersion, written) || isAtOrAfter(progress, written);
}
