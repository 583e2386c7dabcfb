/**
 * Records what would end a process that has no handler for it (unhandled rejections, uncaught
 * exceptions) until `stop()`: for a test that asserts none happened.
 */
export function processFailures(): { readonly failures: unknown[]; stop(): void } {
  const failures: unknown[] = [];
  const record = (err: unknown): void => {
    failures.push(err);
  };
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
  return {
    failures,
    stop: () => {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    },
  };
}
