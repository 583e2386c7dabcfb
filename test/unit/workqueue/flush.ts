/** Resolves after every promise continuation queued so far has run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
