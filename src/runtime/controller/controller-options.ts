import type { Registry } from 'prom-client';
import type { Clock } from '../clock/clock.ts';
import { systemClock } from '../clock/clock.ts';
import type { Kind } from '../client/kind.ts';
import type { Logger } from '../log/logger.ts';
import { silentLogger } from '../log/logger.ts';
import { metricsRegistry } from '../metrics/registry.ts';
import type { Reconciler } from '../reconcile/reconciler.ts';
import type { RateLimiter } from '../workqueue/rate-limiter.ts';

/** What a {@link Controller} takes. */
export interface ControllerOptions {
  /** Unique among the manager's controllers; names the queue, the metrics and the log lines. */
  readonly name: string;
  readonly reconciler: Reconciler;
  /** The kind reconciled, for the `controllerGroup` and `controllerKind` of log lines. Default: none. */
  readonly forKind?: Kind;
  /** How many requests are reconciled at once (never two of the same object). Default: 1. */
  readonly maxConcurrentReconciles?: number;
  /** Delays of errors and `requeue`. Default: the workqueue's default controller rate limiter. */
  readonly rateLimiter?: RateLimiter<string>;
  /**
   * A programming error thrown by the reconciler (TypeError, ReferenceError, RangeError, or a
   * throw of a non-Error) is Go's panic. When true it is logged with its stack, counted in
   * controller_runtime_reconcile_panics_total and retried like any error; when false it stops the
   * controller, and `start` rejects with it, so it cannot go unnoticed. Default: true.
   */
  readonly recoverPanic?: boolean;
  /** How long `start` waits for the watched kinds' caches before it gives up. Default: 120 000 ms. */
  readonly cacheSyncTimeoutMs?: number;
  /** Default: silent. */
  readonly logger?: Logger;
  /** Default: the system clock. */
  readonly clock?: Clock;
  /** Where the controller_runtime_* and workqueue_* metrics go. Default: `metricsRegistry`. */
  readonly registry?: Registry;
}

export type ResolvedControllerOptions = Required<Omit<ControllerOptions, 'rateLimiter' | 'forKind'>> &
  Pick<ControllerOptions, 'rateLimiter' | 'forKind'>;

/** The one place the defaults above are applied. */
export function resolveControllerOptions(options: ControllerOptions): ResolvedControllerOptions {
  return {
    name: options.name,
    reconciler: options.reconciler,
    maxConcurrentReconciles: options.maxConcurrentReconciles ?? 1,
    rateLimiter: options.rateLimiter,
    forKind: options.forKind,
    recoverPanic: options.recoverPanic ?? true,
    cacheSyncTimeoutMs: options.cacheSyncTimeoutMs ?? 120_000,
    logger: options.logger ?? silentLogger,
    clock: options.clock ?? systemClock,
    registry: options.registry ?? metricsRegistry,
  };
}
