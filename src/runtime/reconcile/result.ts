/**
 * What a reconcile asks for next. An empty result means done (until the next event); `requeue`
 * queues the request again with the rate limiter's backoff; `requeueAfter` (milliseconds) queues it
 * again after that delay, without backoff, and a zero or negative one means `requeue` (see
 * `requeueOf`).
 */
export interface Result {
  readonly requeue?: boolean;
  readonly requeueAfter?: number;
}

/** Nothing more to do until something changes. */
export function done(): Result {
  return {};
}

/** Reconcile again after the rate limiter's backoff. */
export function requeue(): Result {
  return { requeue: true };
}

/** Reconcile again after `ms` milliseconds. */
export function requeueAfter(ms: number): Result {
  return { requeueAfter: ms };
}

/** Milliseconds in `n` seconds, for `requeueAfter(seconds(30))`. */
export function seconds(n: number): number {
  return n * 1000;
}
