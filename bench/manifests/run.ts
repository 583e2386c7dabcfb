import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { load } from 'js-yaml';
import { CONTROLLER_TOOLS_VERSION, ensureControllerGen } from '../../test/support/controller-gen.ts';
import { writeBenchProjects } from './project.ts';

// `tsoperator manifests` on a project of N kinds against controller-gen on the same API written in
// Go, alternating the two in one run, and the ratio of their median wall times. controller-gen
// loads its packages through `go list` on every run, as it does in a Kubebuilder Makefile.
//
//   node bench/manifests/run.ts [--kinds 20] [--rounds 7] [--append]

const repo = join(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    kinds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '7' },
    append: { type: 'boolean', default: false },
  },
});
const kinds = Number(values.kinds);
const rounds = Number(values.rounds);

function timed(command: string, args: readonly string[], cwd: string): number {
  const started = process.hrtime.bigint();
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function crdsIn(dir: string): Record<string, unknown> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  return Object.fromEntries(files.map((f) => [f, load(readFileSync(join(dir, f), 'utf8'))]));
}

const root = mkdtempSync(join(tmpdir(), 'tsoperator-bench-manifests-'));
try {
  writeBenchProjects(root, kinds, join(repo, 'fixtures', 'parity', 'topology', 'go'));
  const controllerGen = await ensureControllerGen();
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: repo, stdio: 'inherit' });
  const goDir = join(root, 'go');
  const tsDir = join(root, 'ts');
  const controllerGenArgs = [
    'crd',
    'rbac:roleName=manager-role',
    'webhook',
    'paths=./...',
    'output:crd:artifacts:config=config/crd/bases',
    'output:rbac:artifacts:config=config/rbac',
  ];
  const tsoperator = [join(repo, 'bin', 'tsoperator.js'), 'manifests'];
  // One untimed run each: Go's build cache and the OS file cache are warm for both from here on.
  timed(controllerGen, controllerGenArgs, goDir);
  timed(process.execPath, tsoperator, tsDir);
  const times = { controllerGen: [] as number[], tsoperator: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    times.controllerGen.push(timed(controllerGen, controllerGenArgs, goDir));
    times.tsoperator.push(timed(process.execPath, tsoperator, tsDir));
  }
  const same = isDeepStrictEqual(
    crdsIn(join(goDir, 'config', 'crd', 'bases')),
    crdsIn(join(tsDir, 'config', 'crd', 'bases')),
  );
  const ours = median(times.tsoperator);
  const theirs = median(times.controllerGen);
  const row = `| ${new Date().toISOString().slice(0, 10)} | ${kinds} kinds, ${rounds} rounds | ${ours.toFixed(0)} ms | ${theirs.toFixed(0)} ms (controller-gen ${CONTROLLER_TOOLS_VERSION}) | ${(ours / theirs).toFixed(2)}x | ${same ? 'identical' : 'DIFFERENT'} |`;
  console.log('| date | project | tsoperator manifests | controller-gen | ratio | CRDs |');
  console.log('|---|---|---|---|---|---|');
  console.log(row);
  if (values.append) appendFileSync(join(repo, 'bench', 'RESULTS.md'), `${row}\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
