// The sharding benchmark: on one API server, the same Widgets reconciled by one unsharded replica,
// then by rings of 1, 2 and 3 shard processes (each ring its own label, so each starts from
// unassigned objects). Per replica: peak RSS, CPU, cached objects and the heap they take; per
// ring: time to converge, and hand-over times of a shard killed -9 and one sent SIGTERM.
// Run: node bench/sharding/run.ts [--widgets 3000]
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startEnvironment } from '../../src/envtest/index.ts';
import { newClient, type Client } from '../../src/runtime/client/client.ts';
import { LeaseKind } from '../../src/runtime/client/kinds.ts';
import { shardLabel } from '../../src/runtime/sharding/shard-labels.ts';
import { WidgetKind, widgetsCrd } from '../../test/integration/controller/support.ts';

const { values } = parseArgs({ options: { widgets: { type: 'string', default: '3000' } } });
const WIDGETS = Number(values.widgets);
const NAMESPACE = 'bench';
/** Each Widget carries this much text, so that the cache's share is visible over the process's own heap. */
const PAYLOAD = 'x'.repeat(2048);

interface Figures {
  readonly shard: string;
  readonly cached: number;
  readonly cacheHeapBytes: number;
  readonly peakRssBytes: number;
  readonly cpuSeconds: number;
}

/** A replica process and what it printed. */
class Replica {
  readonly name: string;
  readonly #child: ChildProcess;
  readonly #exit: Promise<void>;
  /** Set once the process exited, signalled or not. */
  exited = false;
  /** Wall time of each Widget's last reconcile here. */
  readonly reconciled = new Map<string, number>();
  #figures: ((f: Figures) => void) | undefined;

  constructor(name: string, ring: string | undefined, kubeconfig: string) {
    this.name = name;
    this.#child = spawn(process.execPath, ['--expose-gc', join(import.meta.dirname, 'replica.ts')], {
      env: {
        ...process.env,
        KUBECONFIG: kubeconfig,
        SHARD: name,
        NAMESPACE,
        ...(ring ? { RING: ring } : {}),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.#exit = new Promise((resolve) =>
      this.#child.once('exit', () => {
        this.exited = true;
        resolve();
      }),
    );
    const out = this.#child.stdout;
    if (!out) throw new Error('the replica has no stdout');
    createInterface({ input: out }).on('line', (line) => {
      if (line.startsWith('R ')) this.reconciled.set(line.slice(2), Date.now());
      if (line.startsWith('S ')) this.#figures?.(JSON.parse(line.slice(2)) as Figures);
    });
  }

  figures(): Promise<Figures> {
    return new Promise((resolve) => {
      this.#figures = resolve;
      this.#child.stdin?.write('stats\n');
    });
  }

  async signal(signal: 'SIGKILL' | 'SIGTERM'): Promise<number> {
    const at = Date.now();
    this.#child.kill(signal);
    if (signal === 'SIGKILL') await this.#exit;
    return at;
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode === null) this.#child.kill('SIGKILL');
    await this.#exit;
  }
}

/** Each Widget's shard label of `ring`, or every Widget on 'single' without a ring. */
async function assignments(
  client: Client,
  ring: string | undefined,
): Promise<Map<string, string | undefined>> {
  const widgets = await client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
  const label = ring ? shardLabel(ring) : undefined;
  return new Map(
    widgets.map((w) => [w.metadata?.name ?? '', label ? w.metadata?.labels?.[label] : 'single']),
  );
}

/** Polls until every Widget is on one of `replicas` and reconciled there after `since`; the time it took. */
async function converge(
  client: Client,
  ring: string | undefined,
  replicas: readonly Replica[],
  since: number,
  only?: ReadonlySet<string>,
): Promise<number> {
  const byName = new Map(replicas.map((r) => [r.name, r]));
  for (;;) {
    const dead = replicas.find((r) => r.exited);
    if (dead) throw new Error(`replica ${dead.name} exited before the ring converged (its stderr is above)`);
    const assigned = await assignments(client, ring);
    const done = [...assigned].every(([name, shard]) => {
      if (only && !only.has(name)) return true;
      const at = shard === undefined ? undefined : byName.get(shard)?.reconciled.get(name);
      return at !== undefined && at >= since;
    });
    const held = new Set(assigned.values());
    if (done && replicas.every((r) => held.has(r.name))) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Kills or stops `victim` and times until its Widgets are reconciled by the others. */
async function handOver(
  client: Client,
  ring: string,
  replicas: Replica[],
  victim: Replica,
  signal: 'SIGKILL' | 'SIGTERM',
): Promise<number> {
  const assigned = await assignments(client, ring);
  const its = new Set([...assigned].filter(([, shard]) => shard === victim.name).map(([name]) => name));
  const at = await victim.signal(signal);
  const rest = replicas.filter((r) => r !== victim);
  const took = await converge(client, ring, rest, at, its);
  replicas.splice(replicas.indexOf(victim), 1);
  return took;
}

async function leaderOf(client: Client, ring: string): Promise<string | undefined> {
  const lease = await client.direct().get(LeaseKind, { namespace: NAMESPACE, name: `bench-${ring}` });
  return lease?.spec?.holderIdentity ?? undefined;
}

const env = await startEnvironment({ crdPaths: [widgetsCrd] });
const rows: string[] = [];
try {
  const client = newClient({ kubeConfig: env.kubeConfig });
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  const names = Array.from({ length: WIDGETS }, (_, i) => `widget-${i}`);
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let name = names.pop(); name; name = names.pop())
        await client.create({
          apiVersion: WidgetKind.apiVersion,
          kind: WidgetKind.kind,
          metadata: { name, namespace: NAMESPACE },
          spec: { size: 1, mode: PAYLOAD },
        });
    }),
  );
  for (const [label, ring, count] of [
    ['unsharded, 1 replica', undefined, 1],
    ['1 shard', 'r1', 1],
    ['2 shards', 'r2', 2],
    ['3 shards', 'r3', 3],
  ] as const) {
    const started = Date.now();
    const replicas = Array.from(
      { length: count },
      (_, i) => new Replica(ring ? `${ring}-shard-${i}` : 'single', ring, env.kubeconfigPath),
    );
    const convergence = await converge(client, ring, replicas, started);
    const figures = await Promise.all(replicas.map((r) => r.figures()));
    let kill = '';
    let term = '';
    if (ring && count >= 2) {
      const leader = await leaderOf(client, ring);
      const victim = replicas.find((r) => r.name !== leader);
      if (victim)
        kill = `${((await handOver(client, ring, replicas, victim, 'SIGKILL')) / 1000).toFixed(1)} s`;
      const second = replicas.find((r) => r.name !== leader);
      if (second && replicas.length >= 2)
        term = `${((await handOver(client, ring, replicas, second, 'SIGTERM')) / 1000).toFixed(1)} s`;
    }
    for (const f of figures) {
      rows.push(
        `| ${label} | ${f.shard} | ${f.cached} | ${(f.cacheHeapBytes / 2 ** 20).toFixed(1)} MiB | ${(f.peakRssBytes / 2 ** 20).toFixed(0)} MiB | ${f.cpuSeconds.toFixed(1)} s | ${(convergence / 1000).toFixed(1)} s | ${kill} | ${term} | ${readLoad()} |`,
      );
    }
    process.stderr.write(`${label}: converged in ${convergence} ms\n`);
    await Promise.all(replicas.map((r) => r.stop()));
  }
} finally {
  await env.stop();
}
process.stdout.write(
  [
    `${WIDGETS} Widgets of ~2 KiB each, one API server (envtest 1.37.2).`,
    '',
    '| ring | replica | cached | cache heap | peak RSS | CPU | converged | kill -9 hand-over | SIGTERM hand-over | load (1 min) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
  ].join('\n'),
);

/** The 1-minute load average, for the figures' context on a shared machine. */
function readLoad(): string {
  return (loadavg()[0] ?? 0).toFixed(1);
}
