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
