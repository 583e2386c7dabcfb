// Hand-over of a sharded ring whose objects own others: Widgets (standing for WebApps) each with a
// Deployment and a Service, reconciled by shard processes (shard.ts) of one ring. Per size: the
// API server's raw write rate (label patches of the Widgets, 8 at a time, as the sharder's
// concurrent moves, no operator running), then a join into 3 shards, SIGTERM of a non-leader and
// of the leader shard, kill -9 of a non-leader and of the leader shard (each gone shard started
// again, and the ring settled, before the next). A hand-over's time: from the signal (kill -9:
// also from the Lease's expiry) until every Widget of the gone shard is on a live shard and
// reconciled there; failed reconciles are counted throughout. `--runtime DIR` runs the shards from
// another checkout (its bench/handover/shard.ts), for before-and-after figures in one sitting.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { V1Lease } from '@kubernetes/client-node';
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
import { WidgetKind, widgetsCrd } from '../../test/integration/controller/support.ts';

const { values } = parseArgs({
  options: {
    widgets: { type: 'string', default: '3000' },
    runtime: { type: 'string' },
    scenarios: { type: 'string', default: 'join,term,term-leader,kill,kill-leader' },
  },
});
const WIDGETS = Number(values.widgets);
const SCRIPT = join(values.runtime ?? join(import.meta.dirname, '..', '..'), 'bench', 'handover', 'shard.ts');
const SCENARIOS = new Set(values.scenarios.split(','));
const NAMESPACE = 'webapps';
const RING = 'webapps';
const LABEL = shardLabel(RING);
const LEASE_MS = 15_000;

/** A shard process and the reconciles it reported. */
class Shard {
  readonly name: string;
  readonly #child: ChildProcess;
  readonly #exit: Promise<void>;
  /** Wall time of each Widget's last successful reconcile here. */
  readonly reconciled = new Map<string, number>();

  constructor(name: string, kubeconfig: string, failures: string[]) {
    this.name = name;
    this.#child = spawn(process.execPath, [SCRIPT], {
      env: { ...process.env, KUBECONFIG: kubeconfig, SHARD: name, NAMESPACE },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.#exit = new Promise((resolve) => this.#child.once('exit', () => resolve()));
    const out = this.#child.stdout;
    if (!out) throw new Error('the shard has no stdout');
    createInterface({ input: out }).on('line', (line) => {
      if (line.startsWith('R ')) this.reconciled.set(line.slice(2), Date.now());
      if (line.startsWith('F ')) failures.push(`${name} ${line.slice(2)}`);
    });
  }

  async signal(signal: 'SIGKILL' | 'SIGTERM'): Promise<number> {
    const at = Date.now();
    this.#child.kill(signal);
    if (signal === 'SIGKILL') await this.#exit;
    return at;
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
    await this.#exit;
  }
}

await using env = await startEnvironment({ crdPaths: [widgetsCrd] });
const client = newClient({ kubeConfig: env.kubeConfig });
await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
await inParallel(WIDGETS, 32, (i) =>
  client.create({
    apiVersion: WidgetKind.apiVersion,
    kind: WidgetKind.kind,
    metadata: { name: `webapp-${i}`, namespace: NAMESPACE },
    spec: { size: 1 },
  }),
);
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
widgets.start(watching.signal);
leases.start(watching.signal);
await widgets.waitForSync(watching.signal);
await leases.waitForSync(watching.signal);

progress('widgets created and watched');
const rawRate = await writeRate(client);
progress(`raw write rate: ${rawRate.toFixed(0)} writes/s`);
const rows: string[] = [];
const failures: string[] = [];
const shards = new Map<string, Shard>();
function start(name: string): void {
  shards.set(name, new Shard(name, env.kubeconfigPath, failures));
}
try {
  start('shard-a');
  start('shard-b');
  await converge(Date.now());
  progress('2 shards converged');
  const beforeJoin = failures.length;
  const { moving, joinMs } = await joinShard('shard-c');
  const joinFailures = failures.length - beforeJoin;
  if (SCENARIOS.has('join')) row('join of a 3rd shard', moving.size, joinMs, undefined, joinFailures);
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
    const expiry = leaseExpiry(victim.name);
    const before = failures.length;
    progress(`${scenario}: ${victim.name}, ${its.size} Widgets`);
    const at = await victim.signal(signal);
    shards.delete(victim.name);
    const took = await converge(at, its);
    await victim.stop();
    row(
      `${signal === 'SIGKILL' ? 'kill -9' : 'SIGTERM'} of ${leader ? 'the leader' : 'a non-leader'} shard`,
      its.size,
      took,
      signal === 'SIGKILL' ? at + took - expiry : undefined,
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
    `raw write rate (label patches, 8 at a time, no operator): ${rawRate.toFixed(0)} writes/s`,
    '',
    '| hand-over | Widgets moved | time to the last move | after Lease expiry | floor at the raw rate (3 writes each) | failed reconciles |',
    '|---|---:|---:|---:|---:|---:|',
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

function row(what: string, moved: number, ms: number, afterExpiry: number | undefined, failed: number): void {
  const floor = ((moved * 3) / rawRate) * 1000;
  const s = (n: number): string => `${(n / 1000).toFixed(1)} s`;
  rows.push(
    `| ${what} | ${moved} | ${s(ms)} | ${afterExpiry === undefined ? '' : s(afterExpiry)} | ${s(floor)} | ${failed} |`,
  );
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

/**
 * Polls until every Widget (of `only`) is on a running shard and reconciled there after `since`,
 * every one on its `home` shard when given, and every running shard holds some; the time it took.
 */
async function converge(
  since: number,
  only?: ReadonlySet<string>,
  home?: (widget: string) => string | undefined,
): Promise<number> {
  for (;;) {
    const assigned = assignments();
    const done = [...assigned].every(([name, shard]) => {
      if (home && shard !== home(name)) return false;
      if (only && !only.has(name)) return true;
      const at = shard === undefined ? undefined : shards.get(shard)?.reconciled.get(name);
      return at !== undefined && at >= since;
    });
    const held = new Set(assigned.values());
    if (done && [...shards.keys()].every((s) => held.has(s))) return Date.now() - since;
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

/** Label patches of every Widget, 8 at a time, with no operator running: writes per second. */
async function writeRate(c: Client): Promise<number> {
  const all = [...widgets.store.values()];
  const began = Date.now();
  await inParallel(all.length, 8, (i) =>
    c.patch(all[i] ?? {}, mergePatch({ metadata: { labels: { 'bench/touched': 'yes' } } })),
  );
  return all.length / ((Date.now() - began) / 1000);
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
