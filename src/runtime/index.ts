/**
 * The tsoperator runtime: what a reconciler author uses every day. Internals stay in their folders.
 */

/** A reconcile request: `{ namespace, name }` of one object. */
export { type Request, requestKey, requestFromKey } from './reconcile/request.ts';
/** What a reconcile asks for next: `done()`, `requeue()`, `requeueAfter(ms)`. */
export { type Result, done, requeue, requeueAfter, seconds } from './reconcile/result.ts';
/** An error that is not retried. */
export { TerminalError, isTerminalError } from './reconcile/terminal-error.ts';
/** The interface a controller's reconciler implements. */
export { type Reconciler } from './reconcile/reconciler.ts';
/** Structured JSON logging. */
export { type Logger, type LogLevel, createLogger } from './log/logger.ts';
/** The registry served on /metrics. */
export { metricsRegistry } from './metrics/registry.ts';
/** A work queue with client-go's guarantees: de-duplication, one worker per key, delays, rate limits, priorities. */
export { Workqueue, type WorkqueueOptions } from './workqueue/workqueue.ts';
/** What `Workqueue.get` resolves to: `{ shutdown: false, key, priority }` or `{ shutdown: true }`. */
export { type QueueItem } from './workqueue/queue-item.ts';
/** Options of an add (`priority`), and the low priority of initial-list events. */
export { type AddOptions, LOW_PRIORITY } from './workqueue/add-options.ts';
/** Requeue delays: the controllers' default (5 ms → 1000 s per key, 10 qps overall) and its parts. */
export { type RateLimiter } from './workqueue/rate-limiter.ts';
export { defaultControllerRateLimiter } from './workqueue/default-controller-rate-limiter.ts';
export { ItemExponentialFailureRateLimiter } from './workqueue/item-exponential-failure-rate-limiter.ts';
export { ItemFastSlowRateLimiter } from './workqueue/item-fast-slow-rate-limiter.ts';
export { BucketRateLimiter } from './workqueue/bucket-rate-limiter.ts';
export { MaxOfRateLimiter } from './workqueue/max-of-rate-limiter.ts';
/** Types for API definitions: `int32`, `int64`, `Quantity`, `IntOrString`, `Time`, `ObjectMeta`, `Condition`, ... */
export type { Condition, Duration, IntOrString, MicroTime, ObjectMeta, Quantity, Time, int32, int64 } from './api/types.ts';
