import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { WorkloadResult } from './workload.ts';

// Runs the workqueue workloads on our queue and on client-go's (built once per source hash into
// the cache folder), alternating the two, and prints a markdown table of the medians.

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    workers: { type: 'string', default: '4' },
  },
});

interface Scenario {
  readonly name: 'requeue' | 'filldrain';
  readonly keys: number;
  readonly items: number;
  readonly what: string;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'requeue', keys: 10_000, items: 1_000_000, what: 'get, re-add own key + one other, done' },
  { name: 'filldrain', keys: 100_000, items: 1_000_000, what: '1M adds over 100k keys, then drain' },
];

function goPeer(): string {
  const sourceDir = join(here, 'go');
  const hash = createHash('sha256');
  for (const file of ['go.mod', 'go.sum', 'main.go']) hash.update(readFileSync(join(sourceDir, file)));
  const cache = process.env['TSOPERATOR_CACHE'] ?? join(homedir(), '.cache', 'tsoperator');
  const binary = join(cache, 'bench', 'workqueue', hash.digest('hex').slice(0, 16), 'workqueue-bench');
  if (!existsSync(binary)) {
    mkdirSync(dirname(binary), { recursive: true });
    console.error(`building the client-go peer into ${binary}`);
    execFileSync('go', ['build', '-o', binary, '.'], { cwd: sourceDir, stdio: 'inherit' });
  }
  return binary;
}

function runOnce(command: string, args: string[]): WorkloadResult {
  const out = execFileSync(command, args, { encoding: 'utf8' });
  return JSON.parse(out.trim()) as WorkloadResult;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Items processed per second and queue operations (add, get, done) per second. */
function rates(results: WorkloadResult[]): { items: number; ops: number } {
  const best = median(results.map((r) => r.seconds));
  const r = results[0] as WorkloadResult;
  return { items: r.processed / best, ops: (r.adds + 2 * r.processed) / best };
}

const binary = goPeer();
const rounds = Number(values.rounds);
const fmt = (n: number): string => `${(n / 1e6).toFixed(2)} M/s`;
console.log(
  '| scenario | workload | client-go items/s | ours items/s | ours with metrics items/s | ratio (ours / client-go) |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const scenario of SCENARIOS) {
  const args = [
    `--scenario=${scenario.name}`,
    `--workers=${values.workers}`,
    `--keys=${scenario.keys}`,
    `--items=${scenario.items}`,
  ];
  const ts = [process.execPath, join(here, 'ts-peer.ts'), ...args];
  const go: WorkloadResult[] = [];
  const ours: WorkloadResult[] = [];
  const oursMetrics: WorkloadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    go.push(
      runOnce(
        binary,
        args.map((a) => a.replace(/^--/, '-')),
      ),
    );
    ours.push(runOnce(ts[0] as string, [...ts.slice(1)]));
    oursMetrics.push(runOnce(ts[0] as string, [...ts.slice(1), '--name=bench']));
  }
  const g = rates(go);
  const o = rates(ours);
  const m = rates(oursMetrics);
  console.log(
    `| ${scenario.name} | ${scenario.what}, ${values.workers} workers | ${fmt(g.items)} | ${fmt(o.items)} | ${fmt(m.items)} | ${(o.items / g.items).toFixed(2)}× |`,
  );
}
