import { spawn, type ChildProcess } from 'node:child_process';

/** How a process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Where a benchmark's process runs and what it reads. */
export interface ProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Default: the current directory. */
  readonly cwd?: string;
  /** Pipe its stdout to `child.stdout` for the caller to read. Default: ignored. */
  readonly stdout?: boolean;
}

/** How much of a process's stderr a failure's message shows. */
const STDERR_TAIL_CHARS = 16_384;

/**
 * A process a benchmark starts (an operator, a replica), seen from the outside: whether it has
 * exited, the end of its stderr for a failure's message, and a stop that asks first.
 */
export class BenchProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly exited: Promise<ProcessExit>;
  #stderr = '';

  constructor(name: string, spec: ProcessSpec) {
    this.name = name;
    this.child = spawn(spec.command, spec.args, {
      env: spec.env,
      stdio: ['ignore', spec.stdout ? 'pipe' : 'ignore', 'pipe'],
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    const { stderr } = this.child;
    stderr?.setEncoding('utf8');
    stderr?.on('data', (chunk: string) => (this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL_CHARS)));
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  get hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** The end of what the process wrote on stderr. */
  stderrTail(): string {
    return this.#stderr;
  }

  /** Throws with the end of its stderr if the process has exited. */
  assertRunning(): void {
    if (this.hasExited)
      throw new Error(
        `${this.name} exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.#stderr}`,
      );
  }

  /** Sends SIGTERM, then SIGKILL if it has not exited after `graceMs`, and waits for its exit. */
  async stop(graceMs: number): Promise<ProcessExit> {
    if (!this.hasExited) this.child.kill('SIGTERM');
    const killer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    const exit = await this.exited;
    clearTimeout(killer);
    return exit;
  }
}
