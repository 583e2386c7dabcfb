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
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'requeue', keys: 10_000, items: 1_000_000 },
  { name: 'filldrain', keys: 100_000, items: 1_000_000 },
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

/** Items processed per wall-clock second and per CPU second, from the median run. */
function rates(results: WorkloadResult[]): { wall: number; cpu: number } {
  const processed = (results[0] as WorkloadResult).processed;
  return {
    wall: processed / median(results.map((r) => r.seconds)),
    cpu: processed / median(results.map((r) => r.cpuSeconds)),
  };
}

const binary = goPeer();
const rounds = Number(values.rounds);
const mps = (n: number): string => `${(n / 1e6).toFixed(2)} M`;
console.log(
  '| scenario | client-go items/s | ours items/s | ratio | client-go items/CPU-s | ours items/CPU-s | ratio | ours with metrics items/s |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const scenario of SCENARIOS) {
  const args = [
    `--scenario=${scenario.name}`,
    `--workers=${values.workers}`,
    `--keys=${scenario.keys}`,
    `--items=${scenario.items}`,
  ];
  const ts = [join(here, 'ts-peer.ts'), ...args];
  const go: WorkloadResult[] = [];
  const ours: WorkloadResult[] = [];
  const withMetrics: WorkloadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    go.push(
      runOnce(
        binary,
        args.map((a) => a.replace(/^--/, '-')),
      ),
    );
    ours.push(runOnce(process.execPath, ts));
    withMetrics.push(runOnce(process.execPath, [...ts, '--name=bench']));
  }
  const g = rates(go);
  const o = rates(ours);
  const m = rates(withMetrics);
  console.log(
    `| ${scenario.name} | ${mps(g.wall)} | ${mps(o.wall)} | ${(o.wall / g.wall).toFixed(2)}× | ${mps(g.cpu)} | ${mps(o.cpu)} | ${(o.cpu / g.cpu).toFixed(2)}× | ${mps(m.wall)} |`,
  );
}
