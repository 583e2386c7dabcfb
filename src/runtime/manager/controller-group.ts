import type { Clock } from '../clock/clock.ts';
import { clockTimeout } from '../clock/clock-timeout.ts';
import type { Controller } from '../controller/controller.ts';
import type { Logger } from '../log/logger.ts';

/** `start` of a controller group did not end within the graceful-shutdown timeout. */
export class GracefulShutdownTimeoutError extends Error {
  constructor(timeoutMs: number, running: readonly string[]) {
    super(
      `graceful shutdown timed out after ${timeoutMs} ms: controllers ${running.join(', ')} still had reconciles running; their signals were aborted`,
    );
    this.name = 'GracefulShutdownTimeoutError';
  }
}

/** What a {@link ControllerGroup} runs its controllers with. */
export interface ControllerGroupOptions {
  /** How long in-flight reconciles may run on once stopping starts, on any stop path. */
  readonly gracefulShutdownTimeout: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * The controllers a manager runs while it may (always, or while it leads), as controller-runtime's
 * runnable group: controllers added while it runs start at once; the first failure stops the
 * others; and stopping is bounded. Once it stops (signal, failure or `abortNow`) the reconciles in
 * flight get `gracefulShutdownTimeout` to return; after that their signals are aborted and `run`
 * rejects without waiting for them any longer, so a reconcile that ignores its signal cannot keep
 * the process up.
 */
export class ControllerGroup {
  readonly #options: ControllerGroupOptions;
  readonly #running = new Map<Controller, Promise<void>>();
  readonly #stop = new AbortController();
  readonly #abortReconciles = new AbortController();
  #failure: { readonly error: unknown } | undefined;
  #undrained = false;
  #wake: (() => void) | undefined;

  constructor(options: ControllerGroupOptions) {
    this.#options = options;
  }

  /** Starts `controller` now; rejected when the group is stopping. */
  add(controller: Controller): void {
    if (this.#stop.signal.aborted) {
      throw new Error(
        `controller ${controller.name} was added while the manager is stopping: add controllers before mgr.start() or while it runs`,
      );
    }
    const fail = (error: unknown): void => {
      if (this.#failure) return;
      this.#options.logger.error('controller failed; stopping the manager', {
        controller: controller.name,
        error,
      });
      this.#failure = { error };
      this.#stop.abort(error);
    };
    // A halted controller fails the group now, not once its last reconcile has returned.
    const onHalt = (): void => fail(controller.halted.reason);
    controller.halted.addEventListener('abort', onHalt, { once: true });
    const run = controller
      .start({ stop: this.#stop.signal, abortReconciles: this.#abortReconciles.signal })
      .catch(fail)
      .finally(() => controller.halted.removeEventListener('abort', onHalt))
      .finally(() => {
        this.#running.delete(controller);
        this.#wake?.();
      });
    this.#running.set(controller, run);
  }

  /** True once a drain ended at the timeout: reconciles that ignore their signal may still run. */
  get undrained(): boolean {
    return this.#undrained;
  }

  /** Aborts every reconcile in flight and stops at once: the lease was lost. */
  abortNow(reason: unknown): void {
    this.#abortReconciles.abort(reason);
    this.#stop.abort(reason);
  }

  /**
   * Runs until `stop` aborts or a controller fails, then drains within the graceful-shutdown
   * timeout. Resolves when every controller returned after a stop; rejects with the first failure,
   * or with a GracefulShutdownTimeoutError when the drain outlived the timeout.
   */
  async run(stop: AbortSignal): Promise<void> {
    const onStop = (): void => this.#stop.abort(stop.reason);
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
    try {
      await this.#untilStopping();
      const drained = await this.#drain();
      if (this.#failure) throw this.#failure.error;
      if (!drained) {
        throw new GracefulShutdownTimeoutError(this.#options.gracefulShutdownTimeout, this.#names());
      }
    } finally {
      stop.removeEventListener('abort', onStop);
    }
  }

  async #untilStopping(): Promise<void> {
    if (this.#stop.signal.aborted) return;
    await new Promise((resolve) => this.#stop.signal.addEventListener('abort', resolve, { once: true }));
  }

  /** Waits for the controllers to return within the timeout; false when some did not. */
  async #drain(): Promise<boolean> {
    const { clock, gracefulShutdownTimeout } = this.#options;
    const timeout = clockTimeout(clock, gracefulShutdownTimeout);
    timeout.signal.addEventListener('abort', () => this.#wake?.(), { once: true });
    try {
      while (this.#running.size > 0) {
        if (timeout.signal.aborted) {
          this.#undrained = true;
          this.#abortReconciles.abort(
            new GracefulShutdownTimeoutError(gracefulShutdownTimeout, this.#names()),
          );
          return false;
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
      return true;
    } finally {
      this.#wake = undefined;
      timeout.clear();
    }
  }

  #names(): string[] {
    return [...this.#running.keys()].map((c) => c.name);
  }
}
