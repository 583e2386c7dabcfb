/**
 * Marks `work` as work several callers wait for, each of whom may give up (a shared dial, one run of
 * a credential plugin): its failure reaches every caller still waiting (see {@link untilAborted}),
 * and is dropped when none is left, where it would otherwise be an unhandled rejection, which ends
 * the process. The next caller starts the work again and sees its failure then.
 */
export function sharedWork<T>(work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  return work;
}

/**
 * `work`, or a rejection with `signal`'s reason once it aborts (at once when it already has): the
 * caller stops waiting, the work goes on for the others. Give it {@link sharedWork}.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
