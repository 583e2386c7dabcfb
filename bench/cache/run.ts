import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEnvironment } from '../../src/envtest/index.ts';
import { newClient } from '../../src/runtime/client/client.ts';
import { fillConfigMaps } from '../support/config-maps.ts';
import { goPeer } from '../support/go-peer.ts';
import type { CacheRunResult } from './cache-run-result.ts';

// Fills a test API server with ConfigMaps, then alternates the two peers (each a fresh process
// caching them all) and prints a markdown table of the medians.

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: { objects: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' } },
});

function run(command: string, args: string[]): CacheRunResult {
  return JSON.parse(execFileSync(command, args, { encoding: 'utf8' }).trim()) as CacheRunResult;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const binary = goPeer(join(here, 'go'), 'cache');
const count = Number(values.objects);
await using env = await startEnvironment();
const namespace = 'bench';
await fillConfigMaps(newClient({ kubeConfig: env.kubeConfig }), namespace, count);
const peerArgs = ['--kubeconfig', env.kubeconfigPath, '--namespace', namespace];
const go: CacheRunResult[] = [];
const ours: CacheRunResult[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  go.push(run(binary, peerArgs));
  ours.push(
    run(process.execPath, [...process.execArgv, '--expose-gc', join(here, 'ts-peer.ts'), ...peerArgs]),
  );
}
for (const r of [...go, ...ours])
  if (r.objects !== count) throw new Error(`a peer cached ${r.objects} objects, not ${count}`);
const row = (name: string, rs: CacheRunResult[]): { bytes: number; seconds: number } => {
  const bytes = median(rs.map((r) => r.bytesPerObject));
  const seconds = median(rs.map((r) => r.syncSeconds));
  console.log(`| ${name} | ${count} | ${(bytes / 1024).toFixed(2)} KiB | ${seconds.toFixed(2)} s |`);
  return { bytes, seconds };
};
console.log('| cache | objects | heap per cached object | list + sync |');
console.log('| --- | --- | --- | --- |');
const g = row('controller-runtime', go);
const t = row('tsoperator', ours);
console.log(
  `| ratio (ours / controller-runtime) | | ${(t.bytes / g.bytes).toFixed(2)}× | ${(t.seconds / g.seconds).toFixed(2)}× |`,
);
