import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** How a {@link ShardProcess} is run. */
export interface ShardProcessOptions {
  /** Arguments of node: the script, and any flag before it. */
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Keep its stdin open, for a script that reads requests there. Default: false. */
  readonly stdin?: boolean;
  /** Each line it prints other than `R <name>`. */
  readonly onLine?: (line: string) => void;
}

/**
 * One process of a sharding benchmark (a shard, or an unsharded replica), seen from the outside:
 * it prints `R <name>` for each reconcile of a Widget that succeeded; its stderr is the
 * benchmark's.
 */
export class ShardProcess {
  readonly name: string;
  /** Wall time of each Widget's last successful reconcile here. */
  readonly reconciled = new Map<string, number>();
  /** Wall time of the last reconcile here. */
  lastReconcileAt = 0;
  /** Set once the process exited, signalled or not. */
  exited = false;
  readonly #child: ChildProcess;
  readonly #exit: Promise<void>;

  constructor(name: string, options: ShardProcessOptions) {
    this.name = name;
    this.#child = spawn(process.execPath, options.args, {
      env: options.env,
      stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'inherit'],
    });
    this.#exit = new Promise((resolve) =>
      this.#child.once('exit', () => {
        this.exited = true;
        resolve();
      }),
    );
    const out = this.#child.stdout;
    if (!out) throw new Error(`process ${name} has no stdout`);
    createInterface({ input: out }).on('line', (line) => {
      if (!line.startsWith('R ')) return options.onLine?.(line);
      this.lastReconcileAt = Date.now();
      this.reconciled.set(line.slice(2), this.lastReconcileAt);
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Writes `line` on its stdin (see `ShardProcessOptions.stdin`). */
  tell(line: string): void {
    this.#child.stdin?.write(`${line}\n`);
  }

  /** Sends `signal` (a SIGKILL is waited for) and returns when it was sent. */
  async signal(signal: 'SIGKILL' | 'SIGTERM'): Promise<number> {
    const at = Date.now();
    this.#child.kill(signal);
    if (signal === 'SIGKILL') await this.#exit;
    return at;
  }

  /** Kills it unless it has exited, and waits for the exit. */
  async stop(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
    await this.#exit;
  }
}

/**
 * Whether a ring has converged: every Widget (of `only`, when given) is on one of `running` and
 * was reconciled there after `since` (and on its `home` shard, when given), and every running
 * process holds some. `assigned` is each Widget's shard.
 */
export function converged(
  assigned: ReadonlyMap<string, string | undefined>,
  running: ReadonlyMap<string, ShardProcess>,
  since: number,
  only?: ReadonlySet<string>,
  home?: (widget: string) => string | undefined,
): boolean {
  const done = [...assigned].every(([name, shard]) => {
    if (home && shard !== home(name)) return false;
    if (only && !only.has(name)) return true;
    const at = shard === undefined ? undefined : running.get(shard)?.reconciled.get(name);
    return at !== undefined && at >= since;
  });
  const held = new Set(assigned.values());
  return done && [...running.keys()].every((s) => held.has(s));
}
