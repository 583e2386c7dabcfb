import type { V1Lease } from '@kubernetes/client-node';
import type { KubeObject } from '../../src/runtime/api/kube-object.ts';

/**
 * What happened in a hand-over, from the bench's watches, in seconds since the signal: the gone
 * shard's Lease released or taken over, the leader Lease changing hands, and the moves of its
 * Widgets (the first, then every 250th).
 */
export class HandOverTimeline {
  readonly #label: string;
  readonly #leaderLease: string;
  #shard = '';
  #at = 0;
  #moved = 0;
  #marks: string[] = [];

  /** `label`: the ring's shard label; `leaderLease`: the name of the leader Lease. */
  constructor(label: string, leaderLease: string) {
    this.#label = label;
    this.#leaderLease = leaderLease;
  }

  /** Starts the timeline of shard `shard`'s hand-over, signalled at `at`. */
  begin(shard: string, at: number): void {
    this.#shard = shard;
    this.#at = at;
    this.#moved = 0;
    this.#marks = [];
  }

  /** The timeline so far, ending `converged` at `at`; the next changes are not noted. */
  end(at: number): string {
    this.#mark(`converged (${this.#moved} moved)`, at);
    this.#shard = '';
    return this.#marks.join(', ');
  }

  labelled(old: KubeObject, now: KubeObject): void {
    if (!this.#shard) return;
    if (
      old.metadata?.labels?.[this.#label] !== this.#shard ||
      now.metadata?.labels?.[this.#label] === this.#shard
    )
      return;
    this.#moved++;
    if (this.#moved === 1) this.#mark('first move');
    if (this.#moved % 250 === 0) this.#mark(`${this.#moved} moved`);
  }

  leaseChanged(old: V1Lease, now: V1Lease): void {
    const name = now.metadata?.name;
    const [from, to] = [old.spec?.holderIdentity ?? '', now.spec?.holderIdentity ?? ''];
    if (!this.#shard || from === to) return;
    if (name === this.#shard) this.#mark(to === '' ? 'Lease released' : `Lease held by ${to}`);
    if (name === this.#leaderLease) this.#mark(to === '' ? 'leader Lease released' : 'leader Lease taken');
  }

  #mark(what: string, at = Date.now()): void {
    this.#marks.push(`${what} ${((at - this.#at) / 1000).toFixed(2)} s`);
  }
}
