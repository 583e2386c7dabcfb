import type { KubeObject } from '../api/kube-object.ts';
import { matchesLabels, type LabelSelector } from './label-selector.ts';
import { isAtOrAfter } from './resource-version.ts';

/** A write the cache has yet to show: the resourceVersion it produced, or the uid it deleted. */
interface Expectation {
  readonly resourceVersion: string | undefined;
  readonly deletedUid: string | undefined;
  readonly deleted: boolean;
  /**
   * For a write that took the object out of the informer's selectors, awaited as a delete: its
   * resourceVersion. Reading past it meets the write even if the object has come back since.
   */
  readonly leftAt: string | undefined;
  /** The written object's labels: a list selecting them must show it. */
  readonly labels: Readonly<Record<string, string>> | undefined;
}

/** What an expectation is checked against: the informer's stored object and how far it has read. */
export interface ExpectationView {
  get(key: string): KubeObject | undefined;
  /** The resourceVersion up to which the scope holding `key` has delivered every change. */
  progressOf(key: string): string | undefined;
}

/** What a list reads: its namespace (all when undefined) and label selector (all when undefined). */
export interface ListScope {
  readonly namespace?: string;
  readonly labels?: LabelSelector;
}

/**
 * The client's writes an informer has not shown yet, for read-your-writes. A write is met once
 * the stored object is at or after the written resourceVersion, or the informer has read past it
 * (the object may have changed or gone since); a delete is met once the key is gone or holds
 * another uid, and a write out of the informer's selectors also once it has read past the write.
 * A key is settled once every write to it is met: writes to one object may be
 * answered out of order, and the last answered is not always the newest. Met writes are dropped
 * as events arrive, so the map holds only writes in flight.
 */
export class WriteExpectations {
  readonly #pending = new Map<string, Expectation[]>();

  get size(): number {
    return this.#pending.size;
  }

  note(key: string, answer: KubeObject, deleted: boolean): void {
    this.#add(key, {
      resourceVersion: answer.metadata?.resourceVersion,
      deletedUid: answer.metadata?.uid,
      deleted,
      leftAt: undefined,
      labels: answer.metadata?.labels,
    });
  }

  /**
   * Notes a write (`answer`) that took `stored` out of the informer's selectors: the informer
   * drops it, unless it has come back by the time the informer reads that far.
   */
  noteLeft(key: string, stored: KubeObject, answer: KubeObject): void {
    this.#add(key, {
      resourceVersion: undefined,
      deletedUid: stored.metadata?.uid,
      deleted: true,
      leftAt: answer.metadata?.resourceVersion,
      labels: stored.metadata?.labels,
    });
  }

  #add(key: string, write: Expectation): void {
    const others = (this.#pending.get(key) ?? []).filter((earlier) => !supersedes(write, earlier));
    this.#pending.set(key, [...others, write]);
  }

  /** Whether every write to `key` (if any) is visible; drops those that are. */
  settle(key: string, view: ExpectationView): boolean {
    const writes = this.#pending.get(key);
    if (!writes) return true;
    const stored = view.get(key);
    const progress = view.progressOf(key);
    const unmet = writes.filter((write) => !isMet(write, stored, progress));
    if (unmet.length === 0) this.#pending.delete(key);
    else if (unmet.length < writes.length) this.#pending.set(key, unmet);
    return unmet.length === 0;
  }

  /**
   * Whether every noted write a list of `scope` could show is visible; drops those that are. A
   * write concerns the list when it is in the list's namespace and either a written object or
   * the stored one matches the list's labels (the stored one may be listed in its stead).
   */
  settleAll(view: ExpectationView, scope: ListScope = {}): boolean {
    let all = true;
    for (const [key, writes] of this.#pending) {
      if (!concerns(key, writes, view, scope)) continue;
      all = this.settle(key, view) && all;
    }
    return all;
  }
}

/** Whether meeting `later` implies meeting `earlier`, which may then be forgotten. */
function supersedes(later: Expectation, earlier: Expectation): boolean {
  if (later.deleted || earlier.deleted) {
    if (!later.deleted || !earlier.deleted || later.deletedUid !== earlier.deletedUid) return false;
    // A delete implies a leave; a leave implies only an earlier leave.
    if (later.leftAt === undefined) return true;
    return earlier.leftAt !== undefined && isAtOrAfter(later.leftAt, earlier.leftAt);
  }
  if (earlier.resourceVersion === undefined) return true;
  return later.resourceVersion !== undefined && isAtOrAfter(later.resourceVersion, earlier.resourceVersion);
}

function concerns(
  key: string,
  writes: readonly Expectation[],
  view: ExpectationView,
  scope: ListScope,
): boolean {
  if (scope.namespace !== undefined && !key.startsWith(`${scope.namespace}/`)) return false;
  const labels = scope.labels;
  if (labels === undefined) return true;
  if (writes.some((write) => !write.deleted && matchesLabels(labels, write.labels))) return true;
  const stored = view.get(key);
  return stored !== undefined && matchesLabels(labels, stored.metadata?.labels);
}

function isMet(
  expectation: Expectation,
  stored: KubeObject | undefined,
  progress: string | undefined,
): boolean {
  if (expectation.deleted)
    return (
      !stored ||
      (expectation.deletedUid !== undefined && stored.metadata?.uid !== expectation.deletedUid) ||
      (expectation.leftAt !== undefined && isAtOrAfter(progress, expectation.leftAt))
    );
  const written = expectation.resourceVersion;
  if (written === undefined) return true;
  return isAtOrAfter(stored?.metadata?.resourceVersion, written) || isAtOrAfter(progress, written);
}
