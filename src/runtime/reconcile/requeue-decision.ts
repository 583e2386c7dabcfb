import type { Result } from './result.ts';

/**
 * What happens to a request after its reconcile returned a {@link Result}, decided in one place so
 * that the controller and the helpers that return results (finalize) mean the same by "requeue".
 */
export type RequeueDecision =
  /** Forget the request's failures; reconcile again on the next event only. */
  | { readonly kind: 'done' }
  /** Queue it again after the rate limiter's delay (per-key backoff). */
  | { readonly kind: 'backoff' }
  /** Forget its failures and queue it again after `delayMs`. */
  | { readonly kind: 'after'; readonly delayMs: number };

/**
 * The decision a Result stands for. A positive `requeueAfter` wins, as in controller-runtime. A
 * `requeueAfter` of zero or less (or NaN) still asks for another reconcile, so it is `backoff`, as
 * `requeue: true` is: Go cannot tell `RequeueAfter: 0` from no value, but `requeueAfter(0)` is an
 * explicit request here, and the backoff keeps a reconcile that always asks for "now" from spinning.
 *
 * @example
 * ```ts
 * requeueOf(requeueAfter(0)); // { kind: 'backoff' }
 * ```
 */
export function requeueOf(result: Result): RequeueDecision {
  const after = result.requeueAfter;
  if (after !== undefined && after > 0) return { kind: 'after', delayMs: after };
  if (result.requeue === true || after !== undefined) return { kind: 'backoff' };
  return { kind: 'done' };
}
