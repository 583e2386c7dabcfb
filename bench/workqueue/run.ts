import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { cpus, homedir, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { WorkloadResult } from './workload.ts';

// Runs the workqueue workloads on our queue and on client-go's (built once per source hash into
// the cache folder), without metrics and with each side's workqueue metrics on, alternating the
// two peers, and prints a markdown table of the medians, ready to paste into bench/RESULTS.md.

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

/** The queue name both peers give when metrics are on: a named queue reports its metrics. */
const METRICS_NAME = 'bench';

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

/** The rows as a markdown table padded the way prettier formats one. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] as readonly string[]).map((_, column) =>
    Math.max(3, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] as number)).join(' | ')} |`;
  const [header, ...body] = rows;
  return [line(header as readonly string[]), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join(
    '\n',
  );
}

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const goVersion = execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim();
const binary = goPeer();
const rounds = Number(values.rounds);
const loadBefore = load();
const mps = (n: number): string => `${(n / 1e6).toFixed(2)} M`;
const ratio = (ours: number, go: number): string => `${(ours / go).toFixed(2)}×`;
const rows: string[][] = [
  [
    'scenario',
    'metrics',
    'client-go items/s',
    'ours items/s',
    'ratio',
    'client-go items/CPU-s',
    'ours items/CPU-s',
    'ratio',
  ],
];
for (const scenario of SCENARIOS) {
  for (const metrics of [false, true]) {
    const args = [
      `--scenario=${scenario.name}`,
      `--workers=${values.workers}`,
      `--keys=${scenario.keys}`,
      `--items=${scenario.items}`,
      ...(metrics ? [`--name=${METRICS_NAME}`] : []),
    ];
    const go: WorkloadResult[] = [];
    const ours: WorkloadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      go.push(
        runOnce(
          binary,
          args.map((a) => a.replace(/^--/, '-')),
        ),
      );
      ours.push(runOnce(process.execPath, [join(here, 'ts-peer.ts'), ...args]));
    }
    const g = rates(go);
    const o = rates(ours);
    rows.push([
      scenario.name,
      metrics ? 'on' : 'off',
      mps(g.wall),
      mps(o.wall),
      ratio(o.wall, g.wall),
      mps(g.cpu),
      mps(o.cpu),
      ratio(o.cpu, g.cpu),
    ]);
  }
}
console.log(table(rows));
console.log();
console.log(
  `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.versions.node}, ${goVersion}; ` +
    `${rounds} rounds, ${values.workers} workers; load average (1, 5, 15 min) ${loadBefore} before, ${load()} after.`,
);
const workersFlag = values.workers === '4' ? '' : ` --workers ${values.workers}`;
console.log(`Reproduce: node bench/workqueue/run.ts --rounds ${rounds}${workersFlag}`);
