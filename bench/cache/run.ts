import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEnvironment } from '../../src/envtest/index.ts';
import { newClient } from '../../src/runtime/client/client.ts';
import { fillConfigMaps } from '../support/config-maps.ts';
import { goPeer } from '../support/go-peer.ts';
import { median } from '../support/median.ts';
import { COMPILE_CACHE_PRELOAD } from '../support/compile-cache-preload.ts';
import type { CacheRunResult } from './cache-run-result.ts';

// Fills a test API server with ConfigMaps, then alternates the two peers (each a fresh process
// caching them all) and prints markdown tables of the medians.

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: { objects: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' } },
});

function run(command: string, args: string[]): CacheRunResult {
  return JSON.parse(execFileSync(command, args, { encoding: 'utf8' }).trim()) as CacheRunResult;
}

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const binary = goPeer(join(here, 'go'), 'cache');
const count = Number(values.objects);
await using env = await startEnvironment();
const namespace = 'bench';
await fillConfigMaps(newClient({ kubeConfig: env.kubeConfig }), namespace, count);
const peerArgs = ['--kubeconfig', env.kubeconfigPath, '--namespace', namespace];
const go: CacheRunResult[] = [];
const ours: CacheRunResult[] = [];
// As a generated project's `npm start` runs: type stripping with the compile cache, filled by a
// first run that is not counted.
const tsPeer = [
  ...process.execArgv,
  '--expose-gc',
  '--import',
  COMPILE_CACHE_PRELOAD,
  join(here, 'ts-peer.ts'),
];
run(process.execPath, [...tsPeer, ...peerArgs]);
const loadBefore = load();
for (let round = 0; round < Number(values.rounds); round++) {
  go.push(run(binary, peerArgs));
  ours.push(run(process.execPath, [...tsPeer, ...peerArgs]));
  console.error(`round ${round + 1}: ${JSON.stringify({ go: go.at(-1), ours: ours.at(-1) })}`);
}
for (const r of [...go, ...ours])
  if (r.objects !== count) throw new Error(`a peer cached ${r.objects} objects, not ${count}`);

const m = (rs: CacheRunResult[], field: keyof CacheRunResult): number => median(rs.map((r) => r[field]));
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KiB`;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const s = (seconds: number): string => `${seconds.toFixed(2)} s`;
const ratio = (field: keyof CacheRunResult): string => `${(m(ours, field) / m(go, field)).toFixed(2)}×`;
const table = (columns: [string, keyof CacheRunResult, (n: number) => string][]): void => {
  console.log(`| cache | objects | ${columns.map(([title]) => title).join(' | ')} |`);
  console.log(`| --- | --- |${' --- |'.repeat(columns.length)}`);
  for (const [name, rs] of [
    ['controller-runtime', go],
    ['tsoperator', ours],
  ] as const)
    console.log(`| ${name} | ${count} | ${columns.map(([, f, show]) => show(m(rs, f))).join(' | ')} |`);
  console.log(`| ratio (ours / controller-runtime) | | ${columns.map(([, f]) => ratio(f)).join(' | ')} |`);
  console.log();
};
console.log(`${values.rounds} rounds, medians; load average ${loadBefore} before, ${load()} after.\n`);
table([
  ['to synced', 'hasSyncedSeconds', s],
  ['to the cache wait returning', 'syncSeconds', s],
  ['CPU to synced', 'syncCpuSeconds', s],
  ['heap per cached object', 'heapBytesPerObject', kib],
  ['RSS per cached object', 'rssBytesPerObject', kib],
]);
table([
  ['allocated per object while syncing', 'allocBytesPerObject', kib],
  ['heap per queued key', 'queuedKeyBytes', kib],
  ['RSS after sync', 'rssAfterSyncBytes', mib],
  ['peak RSS', 'peakRssBytes', mib],
]);
