// Hand-over of a sharded ring whose objects own others: Widgets (standing for WebApps) each with a
// Deployment and a Service, reconciled by shard processes (shard.ts) of one ring. Per size: the
// API server's raw write rate (label patches of the Widgets, 8 at a time, as the sharder's
// concurrent moves, no operator running), then a join into 3 shards, SIGTERM of a non-leader and
// of the leader shard, kill -9 of a non-leader and of the leader shard (each gone shard started
// again, and the ring settled, before the next). Just before each hand-over the raw rate is
// measured again, on WebApps of another namespace that no shard watches, with the writes a
// hand-over makes (a label patch of each WebApp, its Deployment and its Service). A hand-over's
// time: from the signal (kill -9: also from the Lease's expiry) until every Widget of the gone
// shard is on a live shard and reconciled there; failed reconciles are counted throughout; its
// timeline (the Lease released and taken over, the moves) goes to stderr. `--runtime DIR` runs the
// shards from another checkout (its bench/handover/shard.ts), for before-and-after figures in one
// sitting; `--log DIR` has each shard log at debug level into DIR/<shard>.log.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { V1Lease } from '@kubernetes/client-node';
import type { KubeObject } from '../../src/runtime/api/kube-object.ts';
import { startEnvironment } from '../../src/envtest/index.ts';
import { SharedInformer } from '../../src/runtime/cache/informer.ts';
import { newClient, type Client } from '../../src/runtime/client/client.ts';
import { LeaseKind } from '../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../src/runtime/client/patch.ts';
import { transportFor } from '../../src/runtime/client/transport.ts';
import { silentLogger } from '../../src/runtime/log/logger.ts';
import { HashRing } from '../../src/runtime/sharding/hash-ring.ts';
import { leadingShard } from '../../src/runtime/sharding/leading-shard.ts';
import { ringKeyOf } from '../../src/runtime/sharding/ring-key.ts';
import { shardLabel } from '../../src/runtime/sharding/shard-labels.ts';
import { WidgetKind, widgetsCrd, type Widget } from '../../test/integration/controller/support.ts';
import { converged, ShardProcess } from '../sharding/shard-process.ts';
import { processCpuSeconds } from '../support/process-cpu.ts';
import { HandOverTimeline } from './hand-over-timeline.ts';
import { deploymentSpecOf, serviceSpecOf } from './webapp-children.ts';

const { values } = parseArgs({
  options: {
    widgets: { type: 'string', default: '3000' },
    runtime: { type: 'string' },
    scenarios: { type: 'string', default: 'join,term,term-leader,kill,kill-leader' },
    log: { type: 'string' },
  },
});
const WIDGETS = Number(values.widgets);
const SCRIPT = join(values.runtime ?? join(import.meta.dirname, '..', '..'), 'bench', 'handover', 'shard.ts');
const SCENARIOS = new Set(values.scenarios.split(','));
const NAMESPACE = 'webapps';
/** Where the raw write rate is measured just before each hand-over: no shard watches it. */
const RAW_NAMESPACE = 'raw';
/** WebApps of the raw namespace: 3,000 writes a measurement, as a hand-over of 1,000. */
const RAW_WEBAPPS = 1000;
const RING = 'webapps';
const LABEL = shardLabel(RING);
const LEASE_MS = 15_000;
/** Writes at once in a raw rate's measurement, as the sharder's concurrent moves. */
const RAW_WIDTH = 8;

await using env = await startEnvironment({ crdPaths: [widgetsCrd] });
const client = newClient({ kubeConfig: env.kubeConfig });
for (const name of [NAMESPACE, RAW_NAMESPACE])
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
await inParallel(WIDGETS, 32, (i) => client.create(widget(NAMESPACE, `webapp-${i}`)));
const rawObjects = await createRawWebApps();
const watching = new AbortController();
const transport = transportFor(env.kubeConfig);
/** The Widgets' labels, from a metadata-only watch: polling lists would take the cores being timed. */
const widgets = new SharedInformer({
  kind: WidgetKind,
  transport,
  namespaces: [NAMESPACE],
  metadataOnly: true,
  logger: silentLogger,
});
const leases = new SharedInformer<V1Lease>({
  kind: LeaseKind,
  transport,
  namespaces: [NAMESPACE],
  logger: silentLogger,
});
const timeline = new HandOverTimeline(LABEL, 'bench-webapps');
widgets.addEventHandler({ onUpdate: (old, w) => timeline.labelled(old, w) });
leases.addEventHandler({ onUpdate: (old, l) => timeline.leaseChanged(old, l) });
widgets.start(watching.signal);
leases.start(watching.signal);
await widgets.waitForSync(watching.signal);
await leases.waitForSync(watching.signal);

progress('widgets created and watched');
const rawRate = await writeRate(client, [...widgets.store.values()]);
progress(`raw write rate: ${rawRate.toFixed(0)} writes/s`);
const rows: string[] = [];
const failures: string[] = [];
const shards = new Map<string, ShardProcess>();
function start(name: string): void {
  shards.set(
    name,
    new ShardProcess(name, {
      args: [SCRIPT],
      env: {
        ...process.env,
        KUBECONFIG: env.kubeconfigPath,
        SHARD: name,
        NAMESPACE,
        ...(values.log ? { LOG_FILE: join(values.log, `${name}.log`) } : {}),
      },
      onLine: (line) => {
        if (line.startsWith('F ')) failures.push(`${name} ${line.slice(2)}`);
      },
    }),
  );
}
try {
  start('shard-a');
  start('shard-b');
  await converge(Date.now());
  progress('2 shards converged');
  const beforeJoin = failures.length;
  const joinRate = await writeRate(client, rawObjects);
  const { moving, joinMs } = await joinShard('shard-c');
  const joinFailures = failures.length - beforeJoin;
  if (SCENARIOS.has('join'))
    row('join of a 3rd shard', moving.size, joinMs, undefined, joinRate, joinFailures);
  for (const [scenario, leader, signal] of [
    ['term', false, 'SIGTERM'],
    ['term-leader', true, 'SIGTERM'],
    ['kill', false, 'SIGKILL'],
    ['kill-leader', true, 'SIGKILL'],
  ] as const) {
    if (!SCENARIOS.has(scenario)) continue;
    const lead = await leader_();
    const victim = [...shards.values()].find((s) => (s.name === lead) === leader);
    if (!victim)
      throw new Error(`no ${leader ? 'leader' : 'non-leader'} shard among ${[...shards.keys()].join(', ')}`);
    const its = new Set([...assignments()].filter(([, s]) => s === victim.name).map(([n]) => n));
    const before = failures.length;
    const rate = await writeRate(client, rawObjects);
    progress(
      `${scenario}: ${victim.name}, ${its.size} Widgets; raw rate just before ${rate.toFixed(0)} writes/s`,
    );
    const expiry = leaseExpiry(victim.name);
    const cpu = controlPlaneCpu();
    const shardCpu = shardsCpu();
    const benchCpu = process.cpuUsage();
    const at = await victim.signal(signal);
    timeline.begin(victim.name, at);
    shards.delete(victim.name);
    const took = await converge(at, its);
    const writes = 3 * its.size;
    progress(
      `${scenario}: ${timeline.end(at + took)}; control plane CPU ${(controlPlaneCpu() - cpu).toFixed(1)} s for at least ${writes} writes; ${cpuSince(shardCpu, benchCpu)}`,
    );
    await victim.stop();
    row(
      `${signal === 'SIGKILL' ? 'kill -9' : 'SIGTERM'} of ${leader ? 'the leader' : 'a non-leader'} shard`,
      its.size,
      took,
      signal === 'SIGKILL' ? at + took - expiry : undefined,
      rate,
      failures.length - before,
    );
    // Back, and settled, for the next hand-over.
    await joinShard(victim.name);
  }
} finally {
  await Promise.all([...shards.values()].map((s) => s.stop()));
  watching.abort();
}
const [load1] = loadavg();
process.stdout.write(
  [
    `Widgets: ${WIDGETS}, each owning a Deployment and a Service; lease ${LEASE_MS / 1000} s; runtime: ${values.runtime ?? 'this checkout'}`,
    `raw write rate at the start (label patches of the Widgets, ${RAW_WIDTH} at a time, no operator): ${rawRate.toFixed(0)} writes/s`,
    '',
    '| hand-over | Widgets moved | time to the last move | after Lease expiry | floor at the start’s raw rate (3 writes each) | raw rate just before (WebApp, Deployment, Service) | floor at it | failed reconciles |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `load average (1 min) at the end: ${load1?.toFixed(2) ?? '?'}`,
    ...(failures.length > 0 ? ['', 'failures (first 5):', ...failures.slice(0, 5)] : []),
    '',
  ].join('\n'),
);

/** What the bench is doing, on stderr. */
function progress(what: string): void {
  process.stderr.write(`${new Date().toISOString()} ${what}\n`);
}

function row(
  what: string,
  moved: number,
  ms: number,
  afterExpiry: number | undefined,
  rate: number,
  failed: number,
): void {
  const s = (n: number): string => `${(n / 1000).toFixed(1)} s`;
  const floor = (writesPerSecond: number): string => s(((moved * 3) / writesPerSecond) * 1000);
  rows.push(
    `| ${what} | ${moved} | ${s(ms)} | ${afterExpiry === undefined ? '' : s(afterExpiry)} | ${floor(rawRate)} | ${rate.toFixed(0)} writes/s | ${floor(rate)} | ${failed} |`,
  );
}

/** A Widget of `namespace` named `name`. */
function widget(namespace: string, name: string): Widget {
  return {
    apiVersion: WidgetKind.apiVersion,
    kind: WidgetKind.kind,
    metadata: { name, namespace },
    spec: { size: 1 },
  };
}

/** The raw namespace's WebApps, each with its Deployment and Service, as a shard makes them. */
async function createRawWebApps(): Promise<KubeObject[]> {
  const made: KubeObject[] = [];
  await inParallel(RAW_WEBAPPS, 32, async (i) => {
    const name = `raw-${i}`;
    const metadata = { name, namespace: RAW_NAMESPACE };
    made.push(
      await client.create(widget(RAW_NAMESPACE, name)),
      await client.create({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata,
        spec: deploymentSpecOf(name),
      }),
      await client.create({ apiVersion: 'v1', kind: 'Service', metadata, spec: serviceSpecOf(name) }),
    );
  });
  return made;
}

/**
 * Starts shard `name` and waits until every Widget is on its shard of the grown ring, those that
 * moved reconciled on it after the start: the Widgets moved, and the time it took.
 */
async function joinShard(name: string): Promise<{ moving: Set<string>; joinMs: number }> {
  const ring = new HashRing([...shards.keys(), name]);
  const home = (widget: string): string | undefined =>
    ring.shardFor(ringKeyOf(WidgetKind, { metadata: { namespace: NAMESPACE, name: widget } }));
  const moving = new Set([...assignments()].filter(([w, s]) => s !== home(w)).map(([w]) => w));
  const since = Date.now();
  start(name);
  const joinMs = await converge(since, moving, home);
  progress(`${name} joined: ${moving.size} Widgets moved`);
  return { moving, joinMs };
}

/** Each Widget's shard label. */
function assignments(): Map<string, string | undefined> {
  return new Map(
    [...widgets.store.values()].map((w) => [w.metadata?.name ?? '', w.metadata?.labels?.[LABEL]]),
  );
}

/** Polls until the ring has converged (see {@link converged}); the time it took since `since`. */
async function converge(
  since: number,
  only?: ReadonlySet<string>,
  home?: (widget: string) => string | undefined,
): Promise<number> {
  for (;;) {
    if (converged(assignments(), shards, since, only, home)) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The shard whose process leads: the leader Lease names a process (or, before, the shard). */
async function leader_(): Promise<string | undefined> {
  const lease = await client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'bench-webapps' });
  const holder = lease?.spec?.holderIdentity;
  if (holder && shards.has(holder)) return holder;
  return leadingShard(client, NAMESPACE, 'bench-webapps', RING);
}

/** Wall time the shard's Lease expires unless renewed: its last renew time plus its duration. */
function leaseExpiry(shard: string): number {
  const spec = leases.store.get(`${NAMESPACE}/${shard}`)?.spec;
  const renewed = spec?.renewTime ? new Date(spec.renewTime).getTime() : Date.now();
  return renewed + (spec?.leaseDurationSeconds ?? LEASE_MS / 1000) * 1000;
}

/** CPU seconds etcd and the API server have used so far. */
function controlPlaneCpu(): number {
  return env.pids.slice(0, 2).reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
}

/** Each running shard process's CPU seconds so far. */
function shardsCpu(): Map<string, number> {
  return new Map([...shards.values()].map((s) => [s.name, (s.pid && processCpuSeconds(s.pid)) ?? 0]));
}

/** The CPU each shard still running and this process used since `shardCpu` and `benchCpu` were read. */
function cpuSince(shardCpu: ReadonlyMap<string, number>, benchCpu: NodeJS.CpuUsage): string {
  const used = [...shards.values()].map(
    (s) =>
      `${s.name} ${(((s.pid && processCpuSeconds(s.pid)) ?? 0) - (shardCpu.get(s.name) ?? 0)).toFixed(1)} s`,
  );
  const { user, system } = process.cpuUsage(benchCpu);
  return `CPU of ${used.join(', ')}, the bench ${((user + system) / 1e6).toFixed(1)} s`;
}

/** Label patches of `objects`, 8 at a time, each with a label value of its own: writes per second. */
async function writeRate(c: Client, objects: readonly KubeObject[]): Promise<number> {
  const began = Date.now();
  const value = String(began);
  await inParallel(objects.length, RAW_WIDTH, (i) =>
    c.patch(objects[i] ?? {}, mergePatch({ metadata: { labels: { 'bench/touched': value } } })),
  );
  return objects.length / ((Date.now() - began) / 1000);
}

async function inParallel(
  count: number,
  width: number,
  work: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: width }, worker));
}
