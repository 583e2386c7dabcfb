// The sharding benchmark: on one API server (ShardedListAndWatch on), the same Widgets reconciled
// by one unsharded replica, then by rings of 1, 2 and 3 shard processes split by labels (each ring
// its own label, so each starts from unassigned objects), then by rings of 1, 2 and 3 split by the
// API server's shard selector. Per replica: peak RSS, CPU, cached objects and the heap the cache
// takes (the heap after sync less that of the same program on an empty ring); per ring: time to
// converge, and hand-over times of a shard killed -9 and one sent SIGTERM.
// Run: node bench/sharding/run.ts [--widgets 3000] [--concurrent-moves 8] [--only labels|server]
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEnvironment } from '../../src/envtest/index.ts';
import { SharedInformer } from '../../src/runtime/cache/informer.ts';
import { newClient, type Client } from '../../src/runtime/client/client.ts';
import { transportFor } from '../../src/runtime/client/transport.ts';
import { silentLogger } from '../../src/runtime/log/logger.ts';
import { leadingShard } from '../../src/runtime/sharding/leading-shard.ts';
import { shardLabel } from '../../src/runtime/sharding/shard-labels.ts';
import { WidgetKind, widgetsCrd } from '../../test/integration/controller/support.ts';
import { converged, ShardProcess } from './shard-process.ts';

const { values } = parseArgs({
  options: {
    widgets: { type: 'string', default: '3000' },
    // The sharder's writes at once (sharding.concurrentMoves); unset, the runtime's default.
    'concurrent-moves': { type: 'string' },
    // One mode's rings only (and the unsharded replica they are measured against).
    only: { type: 'string' },
  },
});
const WIDGETS = Number(values.widgets);
const CONCURRENT_MOVES = values['concurrent-moves'];
const NAMESPACE = 'bench';
/** Where the empty-ring baselines run: the same kinds, no objects. */
const EMPTY_NAMESPACE = 'bench-empty';
/** Each Widget carries this much text, so that the cache's share is visible over the process's own heap. */
const PAYLOAD = 'x'.repeat(2048);

type Selection = 'labels' | 'server';

interface Figures {
  readonly shard: string;
  readonly cached: number;
  readonly cacheHeapBytes: number;
  readonly copiedBytes: number;
  readonly peakRssBytes: number;
  readonly cpuSeconds: number;
}

/** A replica process, its reconciles, and the figures it prints when asked. */
class Replica {
  readonly process: ShardProcess;
  readonly synced: Promise<void>;
  #figures: ((f: Figures) => void) | undefined;
  #count: ((cached: number) => void) | undefined;

  constructor(
    name: string,
    ring: string | undefined,
    selection: Selection,
    kubeconfig: string,
    namespace = NAMESPACE,
  ) {
    let onSynced: () => void = () => undefined;
    this.synced = new Promise((resolve) => (onSynced = resolve));
    this.process = new ShardProcess(name, {
      args: ['--expose-gc', join(import.meta.dirname, 'replica.ts')],
      env: {
        ...process.env,
        KUBECONFIG: kubeconfig,
        SHARD: name,
        NAMESPACE: namespace,
        SELECTION: selection,
        ...(ring ? { RING: ring } : {}),
        ...(CONCURRENT_MOVES ? { CONCURRENT_MOVES } : {}),
      },
      stdin: true,
      onLine: (line) => {
        if (line.startsWith('S ')) this.#figures?.(JSON.parse(line.slice(2)) as Figures);
        if (line.startsWith('C ')) this.#count?.(Number(line.slice(2)));
        if (line === 'Y') onSynced();
      },
    });
  }

  get name(): string {
    return this.process.name;
  }

  /** The Widgets its cache holds now. */
  cached(): Promise<number> {
    return new Promise((resolve) => {
      this.#count = resolve;
      this.process.tell('count');
    });
  }

  figures(): Promise<Figures> {
    return new Promise((resolve) => {
      this.#figures = resolve;
      this.process.tell('stats');
    });
  }
}

/**
 * Each Widget's shard label of `ring`, or every Widget on 'single' without a ring, as the
 * harness's metadata-only watch of them has it: polling a list of 3,000 whole Widgets every 250 ms
 * from etcd took the API server much of the cores the moves being timed need.
 */
function assignments(ring: string | undefined): Map<string, string | undefined> {
  const widgets = [...widgetLabels.store.values()];
  const label = ring ? shardLabel(ring) : undefined;
  return new Map(
    widgets.map((w) => [w.metadata?.name ?? '', label ? w.metadata?.labels?.[label] : 'single']),
  );
}

/** Polls until every Widget is on one of `replicas` and reconciled there after `since`; the time it took. */
async function converge(
  ring: string | undefined,
  replicas: readonly Replica[],
  since: number,
  only?: ReadonlySet<string>,
): Promise<number> {
  const byName = new Map(replicas.map((r) => [r.name, r.process]));
  for (;;) {
    const dead = replicas.find((r) => r.process.exited);
    if (dead) throw new Error(`replica ${dead.name} exited before the ring converged (its stderr is above)`);
    if (converged(assignments(ring), byName, since, only)) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Quiet this long, with the caches adding up, and a server-split ring has settled. */
const SETTLED_MS = 3000;

/**
 * A ring split by the server has converged once the caches hold every Widget between them, each
 * some, every Widget was reconciled after `since`, and no reconcile ran for a while (ranges handed
 * over as shards joined are reconciled again); the time to its last reconcile.
 */
async function convergeServer(replicas: readonly Replica[], since: number): Promise<number> {
  for (;;) {
    const dead = replicas.find((r) => r.process.exited);
    if (dead) throw new Error(`replica ${dead.name} exited before the ring converged (its stderr is above)`);
    const counts = await Promise.all(replicas.map((r) => r.cached()));
    const last = Math.max(...replicas.map((r) => r.process.lastReconcileAt));
    const reconciled = new Set(
      replicas.flatMap((r) =>
        [...r.process.reconciled].filter(([, at]) => at >= since).map(([name]) => name),
      ),
    );
    if (
      counts.every((c) => c > 0) &&
      counts.reduce((a, b) => a + b, 0) === WIDGETS &&
      reconciled.size === WIDGETS &&
      Date.now() - last >= SETTLED_MS
    )
      return last - since;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Each Widget's replica: the one that reconciled it last, which with a settled split is its shard. */
function lastReconcilers(replicas: readonly Replica[]): Map<string, string> {
  const at = new Map<string, number>();
  const by = new Map<string, string>();
  for (const r of replicas)
    for (const [name, when] of r.process.reconciled)
      if (when >= (at.get(name) ?? 0)) {
        at.set(name, when);
        by.set(name, r.name);
      }
  return by;
}

/** Polls until every Widget of `its` is reconciled by one of `rest` after `since`; the time it took. */
async function reconciledElsewhere(
  rest: readonly Replica[],
  its: ReadonlySet<string>,
  since: number,
): Promise<number> {
  for (;;) {
    const done = [...its].every((name) => rest.some((r) => (r.process.reconciled.get(name) ?? 0) >= since));
    if (done) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Kills or stops `victim` and times until its Widgets are reconciled by the others. */
async function handOver(
  ring: string,
  selection: Selection,
  replicas: Replica[],
  victim: Replica,
  signal: 'SIGKILL' | 'SIGTERM',
): Promise<number> {
  const owners =
    selection === 'labels'
      ? assignments(ring)
      : (lastReconcilers(replicas) as Map<string, string | undefined>);
  const its = new Set([...owners].filter(([, shard]) => shard === victim.name).map(([name]) => name));
  const at = await victim.process.signal(signal);
  const rest = replicas.filter((r) => r !== victim);
  const took =
    selection === 'labels' ? await converge(ring, rest, at, its) : await reconciledElsewhere(rest, its, at);
  replicas.splice(replicas.indexOf(victim), 1);
  await victim.process.stop();
  return took;
}

/**
 * The heap of the same program with the same kinds on an empty ring (an empty namespace), synced
 * and settled: what a replica's heap holds besides its cached objects.
 */
async function emptyRingHeap(
  ring: string | undefined,
  selection: Selection,
  kubeconfig: string,
): Promise<number> {
  const replica = new Replica(`${ring ?? 'single'}-empty`, ring, selection, kubeconfig, EMPTY_NAMESPACE);
  try {
    await replica.synced;
    // The sharder and the shard Lease start after the sync: let them run a few retry periods.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    return (await replica.figures()).cacheHeapBytes;
  } finally {
    await replica.process.stop();
  }
}

async function leaderOf(client: Client, ring: string): Promise<string | undefined> {
  return leadingShard(client, NAMESPACE, `bench-${ring}`, ring);
}

const env = await startEnvironment({
  crdPaths: [widgetsCrd],
  apiServerArgs: ['--feature-gates=ShardedListAndWatch=true'],
});
const rows: string[] = [];
const harness = new AbortController();
const widgetLabels = new SharedInformer({
  kind: WidgetKind,
  transport: transportFor(env.kubeConfig),
  namespaces: [NAMESPACE],
  metadataOnly: true,
  logger: silentLogger,
});
try {
  const client = newClient({ kubeConfig: env.kubeConfig });
  for (const name of [NAMESPACE, EMPTY_NAMESPACE])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
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
  widgetLabels.start(harness.signal);
  await widgetLabels.waitForSync();
  let singletonCache = 0;
  let singletonCopy = 0;
  for (const [label, ring, count, selection] of [
    ['unsharded, 1 replica', undefined, 1, 'labels'],
    ['labels, 1 shard', 'r1', 1, 'labels'],
    ['labels, 2 shards', 'r2', 2, 'labels'],
    ['labels, 3 shards', 'r3', 3, 'labels'],
    ['server, 1 shard', 's1', 1, 'server'],
    ['server, 2 shards', 's2', 2, 'server'],
    ['server, 3 shards', 's3', 3, 'server'],
  ] as const) {
    if (ring && values.only && values.only !== selection) continue;
    const emptyHeap = await emptyRingHeap(ring && `${ring}e`, selection, env.kubeconfigPath);
    const started = Date.now();
    const replicas = Array.from(
      { length: count },
      (_, i) => new Replica(ring ? `${ring}-shard-${i}` : 'single', ring, selection, env.kubeconfigPath),
    );
    const convergence =
      selection === 'server' && ring
        ? await convergeServer(replicas, started)
        : await converge(ring, replicas, started);
    const figures = await Promise.all(replicas.map((r) => r.figures()));
    const load = readLoad();
    let kill = '';
    let term = '';
    if (ring && count >= 2) {
      const leader = await leaderOf(client, ring);
      const victim = replicas.find((r) => r.name !== leader);
      if (victim)
        kill = `${((await handOver(ring, selection, replicas, victim, 'SIGKILL')) / 1000).toFixed(1)} s`;
      const second = replicas.find((r) => r.name !== leader);
      if (second && replicas.length >= 2)
        term = `${((await handOver(ring, selection, replicas, second, 'SIGTERM')) / 1000).toFixed(1)} s`;
    }
    for (const f of figures) {
      const cache = f.cacheHeapBytes - emptyHeap;
      if (!ring) {
        singletonCache = cache;
        singletonCopy = f.copiedBytes;
      }
      rows.push(
        `| ${label} | ${f.shard} | ${f.cached} | ${mib(f.cacheHeapBytes)} | ${mib(emptyHeap)} | ${mib(cache)} | ${verdict(ring && count, cache, singletonCache)} | ${mib(f.copiedBytes)} | ${verdict(ring && count, f.copiedBytes, singletonCopy)} | ${(f.peakRssBytes / 2 ** 20).toFixed(0)} MiB | ${f.cpuSeconds.toFixed(1)} s | ${(convergence / 1000).toFixed(1)} s | ${kill} | ${term} | ${load} |`,
      );
    }
    process.stderr.write(`${label}: converged in ${convergence} ms, load ${load}\n`);
    await Promise.all(replicas.map((r) => r.process.stop()));
  }
} finally {
  harness.abort();
  await env.stop();
}
process.stdout.write(
  [
    `${WIDGETS} Widgets of ~2 KiB each, one API server (envtest 1.37.2, ShardedListAndWatch on).`,
    '',
    '| ring | replica | cached | heap after sync | empty-ring heap | cache (heap − empty) | goal (1/N + 15 %) | copy of the cached objects | goal (1/N + 15 %) | peak RSS | CPU | converged | kill -9 hand-over | SIGTERM hand-over | load (1 min) |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
  ].join('\n'),
);

/** `goal met` or `goal missed` for a shard of a ring of `shards` against the singleton's figure. */
function verdict(shards: number | undefined, bytes: number, singleton: number): string {
  if (!shards) return '';
  const goal = (1 / shards + 0.15) * singleton;
  return `${mib(goal)} ${bytes <= goal ? 'met' : 'missed'}`;
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(2)} MiB`;
}

/** The 1-minute load average, for the figures' context on a shared machine. */
function readLoad(): string {
  return (loadavg()[0] ?? 0).toFixed(1);
}
