import type { KubernetesObject } from '@kubernetes/client-node';
import type { SharedInformer } from '../cache/informer.ts';
import type { ObjectEvent } from '../event/object-event.ts';
import type { Handler } from '../handler/handler.ts';
import type { Logger } from '../log/logger.ts';
import { metricsRegistry } from '../metrics/registry.ts';
import type { Predicate } from '../predicate/predicate.ts';
import { requestFromKey, requestKey } from '../reconcile/request.ts';
import type { Result } from '../reconcile/result.ts';
import { isTerminalError } from '../reconcile/terminal-error.ts';
import { LOW_PRIORITY } from '../workqueue/add-options.ts';
import { workqueueMetricsProviderFor } from '../workqueue/prometheus-workqueue-metrics-provider.ts';
import { Workqueue } from '../workqueue/workqueue.ts';
import { controllerMetrics, type ControllerMetrics, type ReconcileOutcome } from './controller-metrics.ts';
import {
  resolveControllerOptions,
  type ControllerOptions,
  type ResolvedControllerOptions,
} from './controller-options.ts';

/** A source's handler registration, for waiting until it has seen the initial list. */
interface Source {
  readonly kind: string;
  hasSynced(): boolean;
}

/** Signals of a controller's run: when to stop taking work, and when to abort reconciles in flight. */
export interface ControllerRun {
  /** Aborted: no new reconcile starts; `start` resolves once those in flight have finished. */
  readonly stop: AbortSignal;
  /** Aborted: the signal reconciles were given is aborted too. Default: `stop`. */
  readonly abortReconciles?: AbortSignal;
}

/**
 * Watches kinds through shared informers, turns their events into requests in a workqueue, and
 * runs the reconciler on them with up to `maxConcurrentReconciles` workers, as controller-runtime's
 * controller. Errors requeue with backoff, TerminalErrors do not, and nothing a reconciler throws
 * reaches the process.
 */
export class Controller {
  readonly name: string;
  readonly queue: Workqueue<string>;
  readonly #options: ResolvedControllerOptions;
  readonly #metrics: ControllerMetrics;
  readonly #logger: Logger;
  readonly #sources: Source[] = [];
  #fatal: unknown;

  constructor(options: ControllerOptions) {
    this.#options = resolveControllerOptions(options);
    this.name = this.#options.name;
    this.#logger = this.#options.logger.child({ controller: this.name });
    this.#metrics = controllerMetrics(this.#options.registry);
    this.queue = new Workqueue<string>({
      name: this.name,
      clock: this.#options.clock,
      ...(this.#options.rateLimiter ? { rateLimiter: this.#options.rateLimiter } : {}),
      ...(this.#options.registry === metricsRegistry
        ? {}
        : { metricsProvider: workqueueMetricsProviderFor(this.#options.registry) }),
    });
  }

  /**
   * Sends the informer's events, filtered by `predicates` (all must pass), through `handler` into
   * the queue. Requests from the informer's initial list go in at low priority, so live changes
   * are served first after a restart.
   */
  watch<T extends KubernetesObject>(
    informer: SharedInformer<T>,
    handler: Handler<T>,
    predicates: readonly Predicate<T>[] = [],
  ): void {
    const dispatch = (event: ObjectEvent<T>): void => this.#dispatch(event, handler, predicates);
    const registration = informer.addEventHandler({
      onAdd: (object, isInInitialList) => dispatch({ type: 'create', object, isInInitialList }),
      onUpdate: (oldObject, object) => dispatch({ type: 'update', object, oldObject }),
      onDelete: (object, finalStateUnknown) => dispatch({ type: 'delete', object, finalStateUnknown }),
    });
    this.#sources.push({ kind: informer.kind.kind, hasSynced: () => registration.hasSynced() });
  }

  /**
   * Waits until every watched kind's handler has seen its initial list, then reconciles until
   * `run.stop` aborts, and resolves when the reconciles in flight have finished.
   */
  async start(run: ControllerRun): Promise<void> {
    const abortReconciles = run.abortReconciles ?? run.stop;
    await this.#waitForSources(run.stop);
    const { maxConcurrentReconciles } = this.#options;
    this.#metrics.maxConcurrentReconciles.set({ controller: this.name }, maxConcurrentReconciles);
    this.#logger.info('starting workers', { workerCount: maxConcurrentReconciles });
    const onStop = (): void => this.queue.shutDown();
    if (run.stop.aborted) onStop();
    else run.stop.addEventListener('abort', onStop, { once: true });
    const workers = Array.from({ length: maxConcurrentReconciles }, () =>
      this.#work(run.stop, abortReconciles),
    );
    await Promise.all(workers);
    run.stop.removeEventListener('abort', onStop);
    this.#logger.info('all workers finished');
    if (this.#fatal !== undefined) throw this.#fatal;
  }

  #dispatch<T extends KubernetesObject>(
    event: ObjectEvent<T>,
    handler: Handler<T>,
    predicates: readonly Predicate<T>[],
  ): void {
    try {
      if (!predicates.every((p) => p(event))) return;
      const priority = event.type === 'create' && event.isInInitialList ? LOW_PRIORITY : 0;
      for (const request of handler(event)) this.queue.add(requestKey(request), { priority });
    } catch (err) {
      // A predicate or map function is user code: its failure must not stop the informer.
      this.#logger.error('event handler failed', { error: err, event: event.type });
    }
  }

  async #waitForSources(stop: AbortSignal): Promise<void> {
    const { clock, cacheSyncTimeoutMs } = this.#options;
    const deadline = clock.now() + cacheSyncTimeoutMs;
    while (!this.#sources.every((s) => s.hasSynced())) {
      if (stop.aborted) return;
      if (clock.now() > deadline) {
        const waiting = this.#sources.filter((s) => !s.hasSynced()).map((s) => s.kind);
        throw new Error(
          `controller ${this.name}: timed out after ${cacheSyncTimeoutMs} ms waiting for the caches of ${waiting.join(', ')} to sync`,
        );
      }
      await clock.sleep(10, stop);
    }
  }

  async #work(stop: AbortSignal, abortReconciles: AbortSignal): Promise<void> {
    for (;;) {
      const item = await this.queue.get();
      if (item.shutdown) return;
      // A shut-down queue still hands out what it holds (client-go semantics); a stopping
      // controller takes no new work, and the next leader or process picks it up from its list.
      if (stop.aborted) {
        this.queue.done(item.key);
        continue;
      }
      this.#metrics.activeWorkers.inc({ controller: this.name });
      try {
        await this.#reconcile(item.key, abortReconciles);
      } finally {
        this.#metrics.activeWorkers.dec({ controller: this.name });
        this.queue.done(item.key);
      }
    }
  }

  async #reconcile(key: string, signal: AbortSignal): Promise<void> {
    const request = requestFromKey(key);
    const logger = this.#logger.child({ namespace: request.namespace, name: request.name });
    const started = this.#options.clock.now();
    let outcome: ReconcileOutcome;
    try {
      const result = await this.#options.reconciler.reconcile(request, signal);
      outcome = this.#afterResult(key, result ?? {});
    } catch (err) {
      outcome = this.#afterError(key, err, logger);
    }
    const labels = { controller: this.name };
    this.#metrics.reconcileTime.observe(labels, (this.#options.clock.now() - started) / 1000);
    this.#metrics.reconcileTotal.inc({ ...labels, result: outcome });
    if (logger.enabled('debug')) logger.debug('reconciled', { result: outcome });
  }

  #afterResult(key: string, result: Result): ReconcileOutcome {
    if (result.requeueAfter !== undefined && result.requeueAfter > 0) {
      this.queue.forget(key);
      this.queue.addAfter(key, result.requeueAfter);
      return 'requeue_after';
    }
    if (result.requeue) {
      this.queue.addRateLimited(key);
      return 'requeue';
    }
    this.queue.forget(key);
    return 'success';
  }

  #afterError(key: string, err: unknown, logger: Logger): ReconcileOutcome {
    const labels = { controller: this.name };
    this.#metrics.reconcileErrors.inc(labels);
    if (isTerminalError(err)) {
      this.#metrics.terminalReconcileErrors.inc(labels);
      this.queue.forget(key);
      logger.error('reconcile failed with a terminal error; not retrying', { error: err });
      return 'error';
    }
    if (isPanic(err)) {
      this.#metrics.reconcilePanics.inc(labels);
      logger.error('reconcile panicked', { error: err, stack: err instanceof Error ? err.stack : undefined });
      if (!this.#options.recoverPanic) {
        this.#fatal ??= err;
        this.queue.shutDown();
        return 'error';
      }
    } else {
      logger.error('reconcile failed; requeued with backoff', { error: err });
    }
    this.queue.addRateLimited(key);
    return 'error';
  }
}

/** JavaScript's panics: errors that mean the code is wrong, not that the world is. */
function isPanic(err: unknown): boolean {
  return (
    !(err instanceof Error) ||
    err instanceof TypeError ||
    err instanceof ReferenceError ||
    err instanceof RangeError ||
    err instanceof SyntaxError
  );
}
