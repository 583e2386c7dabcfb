import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

// What a user waits for on a new project, without network: `tsoperator init`, then
// `create api --group demo --version v1 --kind WebApp` (which regenerates the manifests when the
// CLI has the generator), each a fresh process of the built CLI in a fresh folder; N rounds, median
// and slowest.
//
//   node bench/scaffold/run.ts [--rounds 15]

const repo = join(import.meta.dirname, '..', '..');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
const rounds = Number(values.rounds);
const cli = join(repo, 'bin', 'tsoperator.js');

function timed(args: readonly string[], cwd: string): number {
  const started = process.hrtime.bigint();
  execFileSync(process.execPath, [cli, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function summary(label: string, values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  const slowest = sorted.at(-1) ?? Number.NaN;
  return `${label.padEnd(40)} median ${median.toFixed(0).padStart(5)} ms   slowest ${slowest.toFixed(0).padStart(5)} ms`;
}

execFileSync('npm', ['run', 'build', '--silent'], { cwd: repo, stdio: 'inherit' });
const root = mkdtempSync(join(tmpdir(), 'tsoperator-bench-scaffold-'));
const timings = {
  startup: [] as number[],
  init: [] as number[],
  createApi: [] as number[],
  total: [] as number[],
};
try {
  for (let round = 0; round < rounds; round += 1) {
    const dir = join(root, `round-${round}`, 'webapp-operator');
    mkdirSync(dir, { recursive: true });
    // The CLI's fixed cost (Node, and the modules every command loads), for reading the others.
    timings.startup.push(timed(['--version'], dir));
    const init = timed(['init', '--domain', 'example.org'], dir);
    const createApi = timed(['create', 'api', '--group', 'demo', '--version', 'v1', '--kind', 'WebApp'], dir);
    timings.init.push(init);
    timings.createApi.push(createApi);
    timings.total.push(init + createApi);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.stdout.write(`${rounds} rounds, Node ${process.versions.node}\n`);
process.stdout.write(`${summary('start-up (tsoperator --version)', timings.startup)}\n`);
process.stdout.write(`${summary('init', timings.init)}\n`);
process.stdout.write(`${summary('create api (with manifests if present)', timings.createApi)}\n`);
process.stdout.write(`${summary('init + create api', timings.total)}\n`);
