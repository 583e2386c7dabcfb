import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { shellWord } from '../../src/scaffold/update/format-update.ts';
import { BackgroundBlock, type Ending } from './background-block.ts';
import { groupAlive, killGroup, spawnGroup } from './process-groups.ts';

/** How a foreground block ended, and what it printed (stdout and stderr, as a terminal shows them). */
export interface BlockRun {
  readonly ending: Ending;
  readonly output: string;
  readonly timedOut: boolean;
}

/** How long output is read after a block's shell ended, from a job it left running. */
const OUTPUT_AFTER_EXIT_MS = 200;

/** Variables bash sets for itself, which are no part of what the reader exported. */
const SHELL_OWN = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

/**
 * The reader's terminal: each block runs in a new `bash -e -o pipefail` that starts where the last
 * one that succeeded left off, in its working directory and with its exported variables.
 */
export class ReaderTerminal {
  private cwd: string;
  private env: Record<string, string>;
  private readonly stateDir: string;
  private blocks = 0;
  /** Process groups whose leader ended while processes it started (`cmd &`) run on. */
  private readonly leftovers: number[] = [];

  constructor(cwd: string, env: Readonly<Record<string, string>>, stateDir: string) {
    this.cwd = cwd;
    this.env = { ...env };
    this.stateDir = stateDir;
  }

  get folder(): string {
    return this.cwd;
  }

  /** What the reader does by pasting `export NAME=value`. */
  setVariable(name: string, value: string): void {
    this.env[name] = value;
  }

  /** Runs `code` in the foreground; on success, its working directory and environment carry over. */
  async run(code: string, timeoutMs: number): Promise<BlockRun> {
    const state = join(this.stateDir, String(++this.blocks));
    await mkdir(state, { recursive: true });
    const saveState = `pwd > ${shellWord(join(state, 'cwd'))}; env -0 > ${shellWord(join(state, 'env'))}`;
    const child = spawnGroup(
      'bash',
      ['-e', '-o', 'pipefail', '-c', `exec 2>&1\ntrap ${shellWord(saveState)} EXIT\n${code}`],
      {
        cwd: this.cwd,
        env: this.env,
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // Left to the run's end, which kills what is left, should this fail.
      killGroup(child.pid ?? 0).catch(() => undefined);
    }, timeoutMs);
    const ending = await new Promise<Ending>((resolve, reject) => {
      child.on('error', reject);
      // The block is over when its shell is: a job it left running (`cmd &`) holds the output
      // pipes open, so its output is read for a moment more, then let go.
      child.on('exit', (exitCode, signal) => {
        const closed = new Promise<void>((done) => child.once('close', () => done()));
        void Promise.race([closed, sleep(OUTPUT_AFTER_EXIT_MS)]).then(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          resolve({ code: exitCode, signal });
        });
      });
    }).finally(() => clearTimeout(timer));
    if (child.pid !== undefined && groupAlive(child.pid)) this.leftovers.push(child.pid);
    if (ending.code === 0 && !timedOut) await this.takeState(state);
    await rm(state, { recursive: true, force: true });
    return { ending, output, timedOut };
  }

  /** Starts `code` in a terminal of its own that begins where this one is now. */
  startBackground(code: string): BackgroundBlock {
    return new BackgroundBlock(
      spawnGroup('bash', ['-e', '-o', 'pipefail', '-c', `exec 2>&1\n${code}`], {
        cwd: this.cwd,
        env: this.env,
      }),
    );
  }

  /** Kills what the foreground blocks left running. */
  async close(): Promise<void> {
    for (const group of this.leftovers.splice(0)) await killGroup(group);
  }

  private async takeState(state: string): Promise<void> {
    this.cwd = (await readFile(join(state, 'cwd'), 'utf8')).replace(/\n$/, '');
    const env: Record<string, string> = {};
    for (const entry of (await readFile(join(state, 'env'), 'utf8')).split('\0')) {
      const equals = entry.indexOf('=');
      if (equals <= 0) continue;
      const name = entry.slice(0, equals);
      if (!SHELL_OWN.has(name)) env[name] = entry.slice(equals + 1);
    }
    this.env = env;
  }
}
