import type { Client } from '../client/client.ts';
import type { Kind } from '../client/kind.ts';
import type { Reconciler } from '../reconcile/reconciler.ts';
import type { Request } from '../reconcile/request.ts';
import type { Result } from '../reconcile/result.ts';
import type { RangeMember } from './range-member.ts';

/**
 * The shard's side of a ring the API server splits: reconciles an object only while its hash is
 * in this shard's ranges, and registers the reconcile so that the range is not given up under it.
 */
export class RangeReconciler implements Reconciler {
  readonly #reconciler: Reconciler;
  readonly #client: Client;
  readonly #kind: Kind;
  readonly #member: RangeMember;

  constructor(reconciler: Reconciler, client: Client, kind: Kind, member: RangeMember) {
    this.#reconciler = reconciler;
    this.#client = client;
    this.#kind = kind;
    this.#member = member;
  }

  async reconcile(request: Request, signal: AbortSignal): Promise<Result> {
    const obj = await this.#client.get(this.#kind, request, { signal });
    if (!obj) return {};
    return (await this.#member.whileOwned(obj, () => this.#reconciler.reconcile(request, signal))) ?? {};
  }
}
