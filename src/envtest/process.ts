import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processStartTime } from './process-identity.ts';

const KEPT_OUTPUT_LINES = 200;

/** A long-running control-plane process whose recent output is kept for error messages. */
export class ManagedProcess {
  readonly name: string;
  readonly pid: number;
  /** Resolves with the exit code (or the signal) when the process ends. */
  readonly exited: Promise<string>;
  readonly #child: ChildProcess;
  readonly #lines: string[] = [];

  constructor(
    name: string,
    command: string,
    args: readonly string[],
    options: { cwd?: string; env?: NodeJS.ProcessEnv; reaper?: Reaper } = {},
  ) {
    this.name = name;
    // detached: the process leads its own group, so stop() and the reaper can end its children too.
    this.#child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    // A spawn failure is reported by the throw below; unheard, its 'error' event would crash the process.
    this.#child.on('error', () => undefined);
    if (this.#child.pid === undefined) throw new Error(`could not start ${command}`);
    this.pid = this.#child.pid;
    // Watched from its spawn, so a test process killed while this one starts leaves it to the reaper.
    options.reaper?.watchProcess(this.pid);
    this.#child.stdout?.on('data', (chunk: Buffer) => this.#keep(chunk));
    this.#child.stderr?.on('data', (chunk: Buffer) => this.#keep(chunk));
    this.exited = once(this.#child, 'exit').then(([code, signal]) =>
      code === null ? String(signal) : `exit code ${String(code)}`,
    );
    // The exit promise may be awaited only on failure; never let it go unhandled.
    this.exited.catch(() => undefined);
  }

  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** The last lines the process printed. */
  output(): string {
    return this.#lines.join('\n');
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.#signal('SIGTERM');
    const timer = setTimeout(() => this.#signal('SIGKILL'), graceMs);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGKILL at once: for tests that simulate a crash. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.#signal('SIGKILL');
    await this.exited;
  }

  #signal(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pid, signal);
    } catch {
      this.#child.kill(signal);
    }
  }

  #keep(chunk: Buffer): void {
    this.#lines.push(
      ...chunk
        .toString()
        .split('\n')
        .filter((l) => l.length > 0),
    );
    if (this.#lines.length > KEPT_OUTPUT_LINES) this.#lines.splice(0, this.#lines.length - KEPT_OUTPUT_LINES);
  }
}

/**
 * The parent side of the reaper: every process and folder registered here is cleaned up by a
 * watchdog process if this process dies before `release()`.
 */
export class Reaper {
  readonly #child: ChildProcess;

  constructor() {
    const script = fileURLToPath(
      new URL(`./reaper${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
    );
    this.#child = spawn(process.execPath, [script], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    this.#child.unref();
    // The pipe must not keep the event loop alive either.
    (this.#child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }

  watchProcess(pid: number): void {
    // With its start time, so that the reaper never signals another process given the same number.
    this.#send(`pid ${pid} ${processStartTime(pid) ?? ''}`);
  }

  forgetProcess(pid: number): void {
    this.#send(`unpid ${pid}`);
  }

  watchDir(dir: string): void {
    this.#send(`dir ${dir}`);
  }

  /** Everything was cleaned up normally: the reaper exits without touching anything. */
  release(): void {
    this.#send('release');
    this.#child.stdin?.end();
  }

  #send(line: string): void {
    this.#child.stdin?.write(`${line}\n`);
  }
}
