/**
 * Lets callers wait until a condition holds, re-checked each time `wake` is called (by whoever
 * changed what the condition reads).
 */
export class Waiters {
  readonly #waiting = new Set<() => void>();

  wake(): void {
    for (const wake of [...this.#waiting]) wake();
  }

  /** Resolves true once `condition` holds, false when `timeoutMs` passes first. */
  async until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = AbortSignal.timeout(timeoutMs);
    while (!condition()) {
      if (deadline.aborted) return false;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.#waiting.delete(wake);
          deadline.removeEventListener('abort', wake);
          resolve();
        };
        this.#waiting.add(wake);
        deadline.addEventListener('abort', wake, { once: true });
      });
    }
    return true;
  }
}
