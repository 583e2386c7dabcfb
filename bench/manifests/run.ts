import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
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
//   node bench/manifests/run.ts [--kinds 20] [--rounds 7]

const repo = join(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    kinds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '7' },
  },
});
const kinds = Number(values.kinds);
const rounds = Number(values.rounds);

/** Wall and CPU (user + system, children included) milliseconds of one run. */
interface Timing {
  wall: number;
  cpu: number;
}

/**
 * Runs a command under GNU time, which reports the CPU of the command and all it waited for (the
 * `go list` processes controller-gen starts). CPU time is what the machine's load cannot inflate;
 * wall time is what the user waits.
 */
function timed(command: string, args: readonly string[], cwd: string): Timing {
  const report = join(root, 'time.txt');
  execFileSync('/usr/bin/time', ['-f', '%e %U %S', '-o', report, command, ...args], {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [wall = 0, user = 0, system = 0] = readFileSync(report, 'utf8').trim().split(/\s+/).map(Number);
  return { wall: wall * 1000, cpu: (user + system) * 1000 };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The CRDs a run wrote, by file name, without the annotation that names the tool that wrote them. */
function crdsIn(dir: string): Record<string, unknown> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  return Object.fromEntries(
    files.map((f) => {
      const crd = load(readFileSync(join(dir, f), 'utf8')) as { metadata: { annotations?: unknown } };
      return [f, { ...crd, metadata: { ...crd.metadata, annotations: undefined } }];
    }),
  );
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
  const times = { controllerGen: [] as Timing[], tsoperator: [] as Timing[] };
  for (let round = 0; round < rounds; round++) {
    times.controllerGen.push(timed(controllerGen, controllerGenArgs, goDir));
    times.tsoperator.push(timed(process.execPath, tsoperator, tsDir));
  }
  const same = isDeepStrictEqual(
    crdsIn(join(goDir, 'config', 'crd', 'bases')),
    crdsIn(join(tsDir, 'config', 'crd', 'bases')),
  );
  const cell = (runs: Timing[], key: keyof Timing) => median(runs.map((t) => t[key]));
  const ratio = (key: keyof Timing) =>
    (cell(times.tsoperator, key) / cell(times.controllerGen, key)).toFixed(2);
  console.log(`${kinds} kinds, ${rounds} rounds each, medians; controller-gen ${CONTROLLER_TOOLS_VERSION}`);
  console.log('| measure | tsoperator manifests | controller-gen | ratio | CRDs |');
  console.log('|---|---|---|---|---|');
  for (const key of ['wall', 'cpu'] as const) {
    const ours = cell(times.tsoperator, key).toFixed(0);
    const theirs = cell(times.controllerGen, key).toFixed(0);
    console.log(
      `| ${key} | ${ours} ms | ${theirs} ms | ${ratio(key)}x | ${same ? 'identical' : 'DIFFERENT'} |`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
