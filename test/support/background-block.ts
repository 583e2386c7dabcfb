import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopGroup } from './process-groups.ts';
import { shellExports } from './shell-exports.ts';

/** How a process ended: its exit code, or the signal that ended it. */
export interface Ending {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * A block a page runs in the background (a second terminal): its output so far, the `export` lines
 * it printed for the blocks after it, and Ctrl-C at the end of the run.
 */
export class BackgroundBlock {
  private output = '';
  private ending: Ending | undefined;
  private exportsTaken = 0;
  private stopping = false;
  private readonly child: ChildProcessByStdio<null, Readable, Readable>;
  private readonly closed: Promise<void>;

  /** `child` leads its own process group and writes its stderr into its stdout. */
  constructor(child: ChildProcessByStdio<null, Readable, Readable>) {
    this.child = child;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.closed = new Promise((resolve) => {
      child.on('close', (code, signal) => {
        this.ending = { code, signal };
        resolve();
      });
    });
  }

  get log(): string {
    return this.output;
  }

  /** How it ended on its own, before the run stopped it; undefined while it runs or once stopped. */
  get endedEarly(): Ending | undefined {
    return this.stopping ? undefined : this.ending;
  }

  /**
   * Resolves once a complete line of output contains `text`; rejects, with the output, when the
   * block ends first or `timeoutMs` passes.
   */
  async waitForLine(text: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.output.slice(0, this.output.lastIndexOf('\n') + 1).includes(text)) return;
      if (this.ending) throw new Error(`it ended (${describeEnding(this.ending)}) before printing "${text}"`);
      if (Date.now() > deadline) throw new Error(`it did not print "${text}" within ${timeoutMs / 1000} s`);
      await sleep(100);
    }
  }

  /** The `export NAME=value` lines printed since the last call. */
  newExports(): [string, string][] {
    const all = shellExports(this.output);
    const fresh = all.slice(this.exportsTaken);
    this.exportsTaken = all.length;
    return fresh;
  }

  /** Ctrl-C: SIGINT to its whole group, SIGKILL to what is left after `graceMs`; waits for all of it. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = this.ending === undefined;
    if (this.child.pid !== undefined) await stopGroup(this.child.pid, graceMs);
    await this.closed;
  }
}

export function describeEnding(ending: Ending): string {
  return ending.signal ? `killed by ${ending.signal}` : `exit code ${ending.code}`;
}
