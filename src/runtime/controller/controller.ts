import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../api/kube-object.ts';
import type { SharedInformer } from '../cache/informer.ts';
import { linkedSignal } from '../clock/linked-signal.ts';
import type { ObjectEvent } from '../event/object-event.ts';
import type { Handler } from '../handler/handler.ts';
import { errorMessage } from '../log/error-message.ts';
import type { Logger } from '../log/logger.ts';
import { metricsRegistry } from '../metrics/registry.ts';
import type { Predicate } from '../predicate/predicate.ts';
import { withReconcileLogger } from '../reconcile/reconcile-logger.ts';
import { requestFromKey, requestKey } from '../reconcile/request.ts';
import { requeueOf } from '../reconcile/requeue-decision.ts';
import type { Result } from '../reconcile/result.ts';
import { isTerminalError } from '../reconcile/terminal-error.ts';
import { LOW_PRIORITY } from '../workqueue/add-options.ts';
import { workqueueMetricsProviderFor } from '../workqueue/prometheus-workqueue-metrics-provider.ts';
import { Workqueue } from '../workqueue/workqueue.ts';
import {
  controllerMetrics,
  startControllerSeries,
  type ControllerMetrics,
  type ReconcileOutcome,
} from './controller-metrics.ts';
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
  /** Aborted by the first panic when `recoverPanic` is off, with it: nothing more is handed out. */
  readonly #halt = new AbortController();
  #started = false;

  constructor(options: ControllerOptions) {
    this.#options = resolveControllerOptions(options);
    this.name = this.#options.name;
    const forKind = this.#options.forKind;
    this.#logger = this.#options.logger.child({
      controller: this.name,
      ...(forKind ? { controllerGroup: forKind.group, controllerKind: forKind.kind } : {}),
    });
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
  watch<T extends KubeObject>(
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
   * Aborts, with the panic as its reason, the moment `recoverPanic: false` halts the controller:
   * before `start` can reject, which waits for the reconciles still in flight. The manager stops on
   * it at once, so the graceful-shutdown bound covers those reconciles.
   */
  get halted(): AbortSignal {
    return this.#halt.signal;
  }

  /**
   * Waits until every watched kind's handler has seen its initial list (rejecting after
   * `cacheSyncTimeoutMs`, naming the kinds), then reconciles until `run.stop` aborts, and resolves
   * when the reconciles in flight have finished. Rejects with the panic when `recoverPanic` is off.
   */
  async start(run: ControllerRun): Promise<void> {
    if (this.#started) throw new Error(`controller ${this.name} was already started`);
    this.#started = true;
    const abortReconciles = AbortSignal.any([run.abortReconciles ?? run.stop, this.#halt.signal]);
    await this.#waitForSources(run.stop);
    const { maxConcurrentReconciles } = this.#options;
    startControllerSeries(this.#metrics, this.name, maxConcurrentReconciles);
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
    if (this.#halt.signal.aborted) throw this.#halt.signal.reason as Error;
  }

  #dispatch<T extends KubeObject>(
    event: ObjectEvent<T>,
    handler: Handler<T>,
    predicates: readonly Predicate<T>[],
  ): void {
    try {
      if (!predicates.every((p) => p(event))) return;
      const priority = isBackground(event) ? LOW_PRIORITY : 0;
      for (const request of handler(event)) this.queue.add(requestKey(request), { priority });
    } catch (err) {
      // A predicate or map function is user code: its failure must not stop the informer.
      this.#logger.error('event handler failed', { error: err, event: event.type });
    }
  }

  async #waitForSources(stop: AbortSignal): Promise<void> {
    const { clock, cacheSyncTimeoutMs } = this.#options;
    const deadline = clock.monotonic() + cacheSyncTimeoutMs;
    while (!this.#sources.every((s) => s.hasSynced())) {
      if (stop.aborted) return;
      if (clock.monotonic() > deadline) {
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
      // A shut-down queue still hands out what it holds (client-go semantics); a stopping or halted
      // controller takes no new work, and the next leader or process picks it up from its list.
      if (stop.aborted || this.#halt.signal.aborted) {
        this.queue.done(item.key);
        continue;
      }
      this.#metrics.activeWorkers.inc({ controller: this.name });
      try {
        await this.#reconcile(item.key, item.priority, abortReconciles);
      } catch (err) {
        // Only the controller's own bookkeeping can get here: stop rather than lose a worker.
        this.#haltWith(err);
      } finally {
        this.#metrics.activeWorkers.dec({ controller: this.name });
        this.queue.done(item.key);
      }
    }
  }

  async #reconcile(key: string, priority: number, abortReconciles: AbortSignal): Promise<void> {
    const request = requestFromKey(key);
    const logger = this.#logger.child({
      namespace: request.namespace,
      name: request.name,
      reconcileID: randomUUID(),
    });
    // A signal of the reconcile's own (its context, to which its logger is bound), unhooked from
    // the controller's once the reconcile has returned.
    const signal = linkedSignal([abortReconciles]);
    withReconcileLogger(signal.signal, logger);
    const started = this.#options.clock.monotonic();
    let outcome: ReconcileOutcome;
    try {
      const result = await this.#options.reconciler.reconcile(request, signal.signal);
      outcome = this.#afterResult(key, result ?? {}, priority);
    } catch (err) {
      outcome = this.#afterError(key, err, logger, priority);
    } finally {
      signal.release();
    }
    const labels = { controller: this.name };
    this.#metrics.reconcileTime.observe(labels, (this.#options.clock.monotonic() - started) / 1000);
    this.#metrics.reconcileTotal.inc({ ...labels, result: outcome });
    if (logger.enabled('debug')) logger.debug('reconciled', { result: outcome });
  }

  /** Stops the controller at once: in-flight reconciles are aborted, queued keys not handed out. */
  #haltWith(err: unknown): void {
    // The first panic is the one reported: a second abort changes nothing.
    this.#halt.abort(asError(err));
    this.queue.shutDown();
  }

  #afterResult(key: string, result: Result, priority: number): ReconcileOutcome {
    const decision = requeueOf(result);
    switch (decision.kind) {
      case 'after':
        this.queue.forget(key);
        this.queue.addAfter(key, decision.delayMs, { priority });
        return 'requeue_after';
      case 'backoff':
        this.queue.addRateLimited(key, { priority });
        return 'requeue';
      case 'done':
        this.queue.forget(key);
        return 'success';
    }
  }

  #afterError(key: string, err: unknown, logger: Logger, priority: number): ReconcileOutcome {
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
        this.#haltWith(err);
        return 'error';
      }
    } else {
      logger.error('reconcile failed; requeued with backoff', { error: err });
    }
    this.queue.addRateLimited(key, { priority });
    return 'error';
  }
}

/**
 * Events that are not news: the initial list and periodic resyncs (an update to the very same
 * object). They go in at low priority, so live changes are served first.
 */
function isBackground<T extends KubeObject>(event: ObjectEvent<T>): boolean {
  if (event.type === 'create') return event.isInInitialList;
  return event.type === 'update' && event.oldObject === event.object;
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

/** A thrown non-Error (Go's panic of a value) as an Error carrying it, for `start`'s rejection. */
function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(`panic: ${errorMessage(value)}`, { cause: value });
}
