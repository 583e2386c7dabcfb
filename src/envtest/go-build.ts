import { readFile, mkdir, mkdtemp, rename, rm, writeFile, copyFile, chmod } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa, ExecaError } from 'execa';
import { TsoperatorError } from '../errors.ts';
import type { ControlPlaneBinary } from './binaries.ts';
import { CONTROL_PLANE_BINARIES } from './binaries.ts';
import { GoBuildCounts } from './go-build-counts.ts';
import { goModuleWrapper, kubernetesStagingReplaces } from './go-module.ts';

export interface GoBuildOptions {
  /** Kubernetes version, `1.37.2`. */
  version: string;
  /** Folder the binaries are placed in; created if missing, existing binaries are kept. */
  dest: string;
  /** Parent of the wrapper modules; kept between builds. */
  workRoot: string;
  /** Which binaries to build. Default: all four. */
  only?: readonly ControlPlaneBinary[];
  onProgress: (line: string) => void;
}

const KUBERNETES_COMMANDS: Record<Exclude<ControlPlaneBinary, 'etcd'>, string> = {
  'kube-apiserver': 'k8s.io/kubernetes/cmd/kube-apiserver',
  'kube-controller-manager': 'k8s.io/kubernetes/cmd/kube-controller-manager',
  kubectl: 'k8s.io/kubernetes/cmd/kubectl',
};

/** True when a `go` command answers on PATH. */
export async function goAvailable(): Promise<boolean> {
  try {
    await execa('go', ['version']);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds kube-apiserver, kube-controller-manager and kubectl from k8s.io/kubernetes, and the etcd
 * that Kubernetes release pins, from the Go module proxy. k8s.io/kubernetes cannot be
 * `go install`ed (its go.mod replaces the staging modules with local folders), so a small wrapper
 * module requires it and points every staging module at its published v0.<minor>.<patch>.
 */
export async function buildFromGo(options: GoBuildOptions): Promise<void> {
  const wanted = options.only ?? CONTROL_PLANE_BINARIES;
  // Kubernetes' own binaries share one module download, so they go first; etcd last.
  const order = [...wanted.filter((b) => b !== 'etcd'), ...wanted.filter((b) => b === 'etcd')];
  const step = (binary: ControlPlaneBinary): string => `${order.indexOf(binary) + 1} of ${order.length}`;
  options.onProgress(`fetching k8s.io/kubernetes v${options.version} from the Go module proxy`);
  const kubernetes = await downloadModule(`k8s.io/kubernetes@v${options.version}`, options.version);
  const staging = await mkdtemp(join(dirname(options.dest), '.build-'));
  try {
    const k8sModule = join(options.workRoot, `kubernetes-${options.version}`);
    await writeWrapper(
      k8sModule,
      goModuleWrapper({
        require: [['k8s.io/kubernetes', `v${options.version}`]],
        replace: kubernetesStagingReplaces(await readFile(kubernetes.goMod, 'utf8'), options.version),
      }),
    );
    for (const binary of order.filter((b) => b !== 'etcd')) {
      const pkg = KUBERNETES_COMMANDS[binary];
      await goBuild(
        k8sModule,
        pkg,
        join(staging, binary),
        kubernetesLdflags(options.version),
        { label: binary, step: step(binary) },
        options.onProgress,
      );
    }
    if (wanted.includes('etcd')) {
      const etcdVersion = await pinnedEtcdVersion(kubernetes.dir);
      const etcdModule = join(options.workRoot, `etcd-${etcdVersion}`);
      await writeWrapper(
        etcdModule,
        goModuleWrapper({ require: [['go.etcd.io/etcd/server/v3', `v${etcdVersion}`]], replace: [] }),
      );
      await goBuild(
        etcdModule,
        'go.etcd.io/etcd/server/v3',
        join(staging, 'etcd'),
        ['-s', '-w'],
        { label: `etcd ${etcdVersion}`, step: step('etcd') },
        options.onProgress,
      );
    }
    await placeBinaries(staging, options.dest, wanted);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

interface DownloadedModule {
  dir: string;
  goMod: string;
}

async function downloadModule(spec: string, version: string): Promise<DownloadedModule> {
  try {
    const { stdout } = await execa('go', ['mod', 'download', '-json', spec], {
      env: { GOFLAGS: '-mod=mod' },
    });
    const info = JSON.parse(stdout) as { Dir: string; GoMod: string };
    return { dir: info.Dir, goMod: info.GoMod };
  } catch (err) {
    const detail = err instanceof ExecaError ? downloadError(err) : String(err);
    throw new TsoperatorError(
      `Kubernetes ${version} could not be fetched from the Go module proxy (${detail}). Check the version (e.g. 1.37.2) and that the proxy is reachable.`,
    );
  }
}

/** Why `go mod download -json` failed: the `Error` of the JSON it prints, else its first line of output. */
function downloadError(err: { stdout?: unknown; stderr?: unknown }): string {
  const stdout = typeof err.stdout === 'string' ? err.stdout : '';
  try {
    const { Error: reason } = JSON.parse(stdout) as { Error?: string };
    if (reason) return firstLine(reason);
  } catch {
    // Not JSON: go failed before it could say which module, e.g. a bad GOFLAGS.
  }
  return firstLine(stdout || (typeof err.stderr === 'string' ? err.stderr : ''));
}

/** The etcd version a Kubernetes release is tested with, from its hack/lib/etcd.sh. */
async function pinnedEtcdVersion(kubernetesDir: string): Promise<string> {
  const script = await readFile(join(kubernetesDir, 'hack', 'lib', 'etcd.sh'), 'utf8');
  const match = /ETCD_VERSION=\$\{ETCD_VERSION:-([0-9.]+)\}/.exec(script);
  if (!match?.[1])
    throw new TsoperatorError(`Could not find the pinned etcd version in ${kubernetesDir}/hack/lib/etcd.sh.`);
  return match[1];
}

function kubernetesLdflags(version: string): string[] {
  const [major, minor] = version.split('.');
  const values = {
    gitVersion: `v${version}`,
    gitMajor: major ?? '1',
    gitMinor: minor ?? '0',
    gitTreeState: 'clean',
    buildDate: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
  const flags = ['-s', '-w'];
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    for (const [name, value] of Object.entries(values)) flags.push(`-X ${pkg}.${name}=${value}`);
  }
  return flags;
}

async function writeWrapper(dir: string, goMod: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'go.mod');
  const previous = existsSync(path) ? await readFile(path, 'utf8') : '';
  // go.sum from an earlier build stays valid while go.mod is unchanged.
  if (previous !== goMod) {
    await writeFile(path, goMod);
    await rm(join(dir, 'go.sum'), { force: true });
  }
}

/**
 * Runs `go build -v`, reporting every 20 s the modules downloaded and packages compiled so far:
 * compiling Kubernetes takes minutes, most of it before the first binary is written.
 */
async function goBuild(
  moduleDir: string,
  pkg: string,
  output: string,
  ldflags: string[],
  { label, step }: { label: string; step: string },
  onProgress: (line: string) => void,
): Promise<void> {
  const started = Date.now();
  const counts = new GoBuildCounts();
  onProgress(`building ${label} from the Go module proxy (${step}; this takes a few minutes)`);
  const ticker = setInterval(() => {
    onProgress(`  ${label}: ${counts.summary()}, ${Math.round((Date.now() - started) / 1000)} s`);
  }, 20_000);
  try {
    const build = execa(
      'go',
      ['build', '-v', '-mod=mod', '-trimpath', `-ldflags=${ldflags.join(' ')}`, '-o', output, pkg],
      {
        cwd: moduleDir,
        env: { CGO_ENABLED: '0' },
        all: true,
      },
    );
    build.stderr?.on('data', (chunk: Buffer) => counts.add(chunk.toString()));
    await build;
  } catch (err) {
    const output = err instanceof ExecaError ? String(err.all ?? err.message) : String(err);
    throw new TsoperatorError(
      `Building ${label} with Go failed:\n${output.split('\n').slice(-30).join('\n')}`,
    );
  } finally {
    clearInterval(ticker);
  }
  onProgress(`built ${label} in ${Math.round((Date.now() - started) / 1000)} s (${step})`);
}

async function placeBinaries(staging: string, dest: string, names: readonly string[]): Promise<void> {
  await mkdir(dest, { recursive: true });
  for (const name of names) {
    const target = join(dest, name);
    // Copy then rename, so a reader of `dest` never sees a half-written binary.
    await copyFile(join(staging, name), `${target}.partial`);
    await chmod(`${target}.partial`, 0o755);
    await rename(`${target}.partial`, target);
  }
}

function firstLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')
      .find((l) => l.trim()) ?? 'no output'
  );
}
