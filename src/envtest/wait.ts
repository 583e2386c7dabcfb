import { setTimeout as sleep } from 'node:timers/promises';
import { TsoperatorError } from '../errors.ts';
import type { ManagedProcess } from './process.ts';

/**
 * Polls `ready` every 100 ms until it returns true. Fails with the process's last output when the
 * process exits first or the time runs out; then the process is stopped, as no caller has it yet.
 */
export async function waitUntilReady(
  process: ManagedProcess,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!process.running) {
      throw new TsoperatorError(
        `${process.name} exited (${await process.exited}) before it was ready:\n${process.output()}`,
      );
    }
    if (await ready().catch(() => false)) return;
    await sleep(100);
  }
  const output = process.output();
  await process.stop();
  throw new TsoperatorError(`${process.name} was not ready after ${timeoutMs / 1000} s:\n${output}`);
}
