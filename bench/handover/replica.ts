import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Waiters } from './waiters.ts';

/** A moment a replica prints: see ts-replica.ts and go/moments.go. */
export type Moment = 'started' | 'synced' | 'first-reconcile';

/** How a replica process ended. */
export interface ReplicaExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * One replica process, seen from the outside: the moments it printed (unix ms, its wall clock,
 * which is the benchmark's), and how it ended.
 */
export class Replica {
  readonly name: string;
  readonly exited: Promise<ReplicaExit>;
  readonly #child: ChildProcess;
  readonly #moments = new Map<Moment, number>();
  readonly #waiters = new Waiters();
  #stderr = '';

  constructor(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv) {
    this.name = name;
    this.#child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        this.#waiters.wake();
        resolve({ code, signal });
      });
    });
    const { stdout, stderr } = this.#child;
    if (stdout) createInterface({ input: stdout }).on('line', (line) => this.#record(line));
    stderr?.setEncoding('utf8');
    stderr?.on('data', (chunk: string) => (this.#stderr = (this.#stderr + chunk).slice(-8192)));
  }

  /** When the replica printed `moment`, or undefined if it has not (yet). */
  at(moment: Moment): number | undefined {
    return this.#moments.get(moment);
  }

  /** The moment's time once printed; undefined when the replica exits first or `timeoutMs` passes. */
  async waitFor(moment: Moment, timeoutMs: number): Promise<number | undefined> {
    await this.#waiters.until(() => this.at(moment) !== undefined || this.#hasExited(), timeoutMs);
    return this.at(moment);
  }

  /** Sends `signal` and returns the time it was sent, on the replicas' clock. */
  signal(signal: NodeJS.Signals): number {
    const at = Date.now();
    this.#child.kill(signal);
    return at;
  }

  /** Stops the replica (SIGTERM, then SIGKILL after `graceMs`) and waits for it to exit. */
  async stop(graceMs: number): Promise<ReplicaExit> {
    if (!this.#hasExited()) this.#child.kill('SIGTERM');
    const killer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs);
    const exit = await this.exited;
    clearTimeout(killer);
    return exit;
  }

  /** The end of what the replica wrote on stderr, for a failure's message. */
  stderrTail(): string {
    return this.#stderr;
  }

  #hasExited(): boolean {
    return this.#child.exitCode !== null || this.#child.signalCode !== null;
  }

  #record(line: string): void {
    const [moment, at] = line.split(' ');
    if (moment !== 'started' && moment !== 'synced' && moment !== 'first-reconcile') return;
    if (!this.#moments.has(moment)) this.#moments.set(moment, Number(at));
    this.#waiters.wake();
  }
}
