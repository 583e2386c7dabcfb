import { silentLogger, type Logger } from '../log/logger.ts';

/**
 * The logger of each running reconcile, keyed by the signal that reconcile was given. The signal is
 * the reconcile's context, as Go's ctx is controller-runtime's: whatever the reconciler hands its
 * signal to can reach the reconcile's logger with {@link loggerFrom}. Weak, so a finished
 * reconcile's entry goes with its signal.
 */
const loggers = new WeakMap<AbortSignal, Logger>();

/** Binds `logger` to `signal`, for the controller that starts a reconcile. */
export function withReconcileLogger(signal: AbortSignal, logger: Logger): void {
  loggers.set(signal, logger);
}

/**
 * The logger scoped to the reconcile `signal` belongs to: its lines carry `controller`, the kind's
 * `group` and `kind`, `namespace`, `name` and a `reconcileID`, as controller-runtime's
 * `log.FromContext(ctx)`. A signal no controller gave out (a test calling `reconcile` itself) gets
 * `fallback`.
 *
 * @example
 * ```ts
 * async reconcile(req: Request, signal: AbortSignal): Promise<Result> {
 *   const log = loggerFrom(signal);
 *   log.info('scaling', { replicas: 3 });
 *   return done();
 * }
 * ```
 */
export function loggerFrom(signal: AbortSignal, fallback: Logger = silentLogger): Logger {
  return loggers.get(signal) ?? fallback;
}
