import { createInterface } from 'node:readline';
import { BenchProcess, type ProcessExit } from '../support/bench-process.ts';
import { Waiters } from './waiters.ts';

/** A moment a replica prints: see ts-replica.ts and go/moments.go. */
export type Moment = 'started' | 'synced' | 'first-reconcile';

/**
 * One replica process, seen from the outside: the moments it printed (unix ms, its wall clock,
 * which is the benchmark's), and how it ended.
 */
export class Replica {
  readonly name: string;
  readonly exited: Promise<ProcessExit>;
  readonly #process: BenchProcess;
  readonly #moments = new Map<Moment, number>();
  readonly #waiters = new Waiters();

  constructor(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv) {
    this.name = name;
    this.#process = new BenchProcess(name, { command, args, env, stdout: true });
    this.exited = this.#process.exited.then((exit) => {
      this.#waiters.wake();
      return exit;
    });
    const { stdout } = this.#process.child;
    if (stdout) createInterface({ input: stdout }).on('line', (line) => this.#record(line));
  }

  /** When the replica printed `moment`, or undefined if it has not (yet). */
  at(moment: Moment): number | undefined {
    return this.#moments.get(moment);
  }

  /** The moment's time once printed; undefined when the replica exits first or `timeoutMs` passes. */
  async waitFor(moment: Moment, timeoutMs: number): Promise<number | undefined> {
    await this.#waiters.until(() => this.at(moment) !== undefined || this.#process.hasExited, timeoutMs);
    return this.at(moment);
  }

  /** Sends `signal` and returns the time it was sent, on the replicas' clock. */
  signal(signal: NodeJS.Signals): number {
    const at = Date.now();
    this.#process.child.kill(signal);
    return at;
  }

  /** Stops the replica (SIGTERM, then SIGKILL after `graceMs`) and waits for it to exit. */
  async stop(graceMs: number): Promise<ProcessExit> {
    await this.#process.stop(graceMs);
    return this.exited;
  }

  /** The end of what the replica wrote on stderr, for a failure's message. */
  stderrTail(): string {
    return this.#process.stderrTail();
  }

  #record(line: string): void {
    const [moment, at] = line.split(' ');
    if (moment !== 'started' && moment !== 'synced' && moment !== 'first-reconcile') return;
    if (!this.#moments.has(moment)) this.#moments.set(moment, Number(at));
    this.#waiters.wake();
  }
}
