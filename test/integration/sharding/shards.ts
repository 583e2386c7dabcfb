import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Now in ms on the machine's monotonic clock (CLOCK_MONOTONIC), with sub-ms precision: one clock
 * for every process of the machine, as the reconciles of different shards must be compared. A
 * process's `performance.timeOrigin + performance.now()` is not: it counts from that process's own
 * wall-clock reading at its start, and processes started apart disagree by any step in between.
 */
export function sharedNow(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** One reconcile as a shard ran it: which shard, which Widget, and when ({@link sharedNow}). */
export interface Interval {
  readonly shard: string;
  readonly name: string;
  readonly start: number;
  end?: number;
}

/** How {@link ShardProcesses.start} runs a process. */
export interface StartOptions {
  readonly shardName?: string;
  readonly script?: string;
  /** More environment variables for the script. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Shard processes of the test ring, and every reconcile they reported. */
export class ShardProcesses {
  readonly intervals: Interval[] = [];
  /** Each failed reconcile a process reported: `process widget: message`. */
  readonly failures: string[] = [];
  readonly #open = new Map<string, Interval>();
  readonly #children = new Map<string, ChildProcess>();
  readonly #metrics = new Map<string, string>();
  readonly #exits = new Map<string, Promise<number | null>>();
  /** When each process that exited did, on the wall clock (ms). */
  readonly #exitedAt = new Map<string, number>();
  readonly #output = new Map<string, string[]>();
  readonly #kubeconfigPath: string;
  readonly #namespace: string;

  constructor(kubeconfigPath: string, namespace: string) {
    this.#kubeconfigPath = kubeconfigPath;
    this.#namespace = namespace;
  }

  /**
   * Starts process `name` as a child process running `script` of testdata/ (default: shard.ts):
   * the shard of that name, or of `shardName` (two processes given one shard name). Its reconciles
   * are reported under `name`.
   */
  start(name: string, { shardName = name, script = 'shard.ts', env = {} }: StartOptions = {}): void {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'testdata', script)], {
      env: {
        ...process.env,
        ...env,
        KUBECONFIG: this.#kubeconfigPath,
        SHARD: shardName,
        NAMESPACE: this.#namespace,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#children.set(name, child);
    this.#output.set(name, []);
    // 'close', not 'exit': the exit may come before the last lines of its stdout are read, and a
    // begin read after kill() closed the shard's open reconciles would stay open for ever.
    this.#exits.set(
      name,
      new Promise((resolve) =>
        child.once('close', (code) => {
          this.#exitedAt.set(name, Date.now());
          // Its reconciles in flight ended with it.
          this.#endOpen(name, sharedNow());
          resolve(code);
        }),
      ),
    );
    createInterface({ input: child.stdout }).on('line', (line) => this.#read(name, line));
    createInterface({ input: child.stderr }).on('line', (line) => this.#output.get(name)?.push(line));
  }

  /** SIGTERM, and the exit code once it has exited. */
  async terminate(name: string): Promise<number | null> {
    this.#children.get(name)?.kill('SIGTERM');
    return (await this.#exits.get(name)) ?? null;
  }

  /** kill -9; reconciles it left open end at the kill. Returns when it happened ({@link sharedNow}). */
  async kill(name: string): Promise<number> {
    this.#children.get(name)?.kill('SIGKILL');
    await this.#exits.get(name);
    const at = sharedNow();
    this.#endOpen(name, at);
    return at;
  }

  #endOpen(name: string, at: number): void {
    for (const [key, interval] of this.#open) {
      if (interval.shard !== name) continue;
      interval.end = at;
      this.#open.delete(key);
    }
  }

  /** Kills every shard still running. */
  async stopAll(): Promise<void> {
    for (const child of this.#children.values()) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all(this.#exits.values());
  }

  /** When process `name` exited, on its own or killed (wall clock, ms); undefined while it runs. */
  exitedAt(name: string): number | undefined {
    return this.#exitedAt.get(name);
  }

  /** The /metrics URL shard `name` announced, once it did. */
  metricsUrl(name: string): string | undefined {
    return this.#metrics.get(name);
  }

  /** What shard `name` wrote on stderr, for a failure's message. */
  stderr(name: string): string {
    return (this.#output.get(name) ?? []).join('\n');
  }

  /** The lines every process logged at ERROR level (JSON on stderr), each after its process's name. */
  errorLogs(): string[] {
    return [...this.#output].flatMap(([name, lines]) =>
      lines.filter((line) => line.includes('"level":"error"')).map((line) => `${name}: ${line}`),
    );
  }

  /** Whether shard `name` has finished a reconcile of Widget `widget`. */
  reconciled(name: string, widget: string): boolean {
    return this.intervals.some((i) => i.shard === name && i.name === widget && i.end !== undefined);
  }

  #read(shard: string, line: string): void {
    // The process's name stands for the shard: two processes may be given one shard name.
    const [tag, , name = '', at = ''] = line.split(' ');
    if (tag === 'M') this.#metrics.set(shard, name);
    if (tag === 'F') this.failures.push(`${shard} ${name}: ${line.split(' ').slice(3).join(' ')}`);
    if (tag === 'B') {
      const interval: Interval = { shard, name, start: Number(at) };
      this.intervals.push(interval);
      this.#open.set(`${shard}|${name}`, interval);
    }
    if (tag === 'E') {
      const interval = this.#open.get(`${shard}|${name}`);
      if (interval) interval.end = Number(at);
      this.#open.delete(`${shard}|${name}`);
    }
  }
}

/** Reconciles of one object by two shards that overlapped in time. */
export function overlaps(intervals: readonly Interval[]): string[] {
  const byName = new Map<string, Interval[]>();
  for (const i of intervals) byName.set(i.name, [...(byName.get(i.name) ?? []), i]);
  const found: string[] = [];
  for (const [name, list] of byName) {
    const sorted = [...list].sort((a, b) => a.start - b.start);
    for (let i = 0; i < sorted.length; i++) {
      const a = sorted[i];
      for (const b of sorted.slice(i + 1)) {
        if (!a || a.shard === b.shard) continue;
        if ((a.end ?? Infinity) > b.start)
          found.push(`${name}: ${a.shard} [${a.start}, ${a.end ?? 'open'}] and ${b.shard} from ${b.start}`);
      }
    }
  }
  return found;
}

/** `sharding_shard_objects` of `kind` on a /metrics page. */
export function shardObjects(metrics: string, kind: string): number | undefined {
  const line = metrics
    .split('\n')
    .find((l) => l.startsWith('sharding_shard_objects{') && l.includes(`kind="${kind}"`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
