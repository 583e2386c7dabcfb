import { TsoperatorError } from '../errors.ts';
import { systemClock } from '../runtime/clock/clock.ts';
import type { ManagedProcess } from './process.ts';

/**
 * Polls `ready` every 100 ms until it returns true. Fails with the process's last output when the
 * process exits first or the time runs out, and with the signal's reason when `signal` aborts; on a
 * timeout or an abort the process is stopped, as no caller has it yet.
 */
export async function waitUntilReady(
  process: ManagedProcess,
  ready: () => Promise<boolean>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (signal?.aborted) {
      await process.stop();
      signal.throwIfAborted();
    }
    if (!process.running) {
      throw new TsoperatorError(
        `${process.name} exited (${await process.exited}) before it was ready:\n${process.output()}`,
      );
    }
    if (await ready().catch(() => false)) return;
    await systemClock.sleep(100, signal);
  }
  const output = process.output();
  await process.stop();
  throw new TsoperatorError(`${process.name} was not ready after ${timeoutMs / 1000} s:\n${output}`);
}
