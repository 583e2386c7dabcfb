import { readFile, mkdir, mkdtemp, rename, rm, writeFile, copyFile, chmod } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa, ExecaError } from 'execa';
import { TsoperatorError } from '../errors.ts';
import type { ControlPlaneBinary } from './binaries.ts';
import { CONTROL_PLANE_BINARIES } from './binaries.ts';
import { GoBuildCounts } from './go-build-counts.ts';
import { signalGroup } from './process-group.ts';
import { goModuleWrapper, kubernetesStagingReplaces } from './go-module.ts';
import {
  defaultKwokStages,
  KWOK_MODULE,
  KWOK_STAGES_FILE,
  KWOK_VERSION,
  KWOK_VERSION_FILE,
} from './kwok-release.ts';

export interface GoBuildOptions {
  /** Kubernetes version, `1.37.2`. */
  version: string;
  /** Folder the binaries are placed in; created if missing, existing binaries are kept. */
  dest: string;
  /** Parent of the wrapper modules; kept between builds. */
  workRoot: string;
  /** Which binaries to build. Default: all of CONTROL_PLANE_BINARIES. */
  only?: readonly ControlPlaneBinary[];
  onProgress: (line: string) => void;
  /** Stops the `go` commands and rejects with the signal's reason. */
  signal?: AbortSignal;
}

type KubernetesBinary = Exclude<ControlPlaneBinary, 'etcd' | 'kwok'>;

const KUBERNETES_COMMANDS: Record<KubernetesBinary, string> = {
  'kube-apiserver': 'k8s.io/kubernetes/cmd/kube-apiserver',
  'kube-controller-manager': 'k8s.io/kubernetes/cmd/kube-controller-manager',
  'kube-scheduler': 'k8s.io/kubernetes/cmd/kube-scheduler',
  kubectl: 'k8s.io/kubernetes/cmd/kubectl',
};

function isKubernetesBinary(binary: ControlPlaneBinary): binary is KubernetesBinary {
  return binary in KUBERNETES_COMMANDS;
}

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
 * Builds kube-apiserver, kube-controller-manager, kube-scheduler and kubectl from k8s.io/kubernetes,
 * the etcd that Kubernetes release pins, and kwok, from the Go module proxy. k8s.io/kubernetes
 * cannot be `go install`ed (its go.mod replaces the staging modules with local folders), so a small
 * wrapper module requires it and points every staging module at its published v0.<minor>.<patch>.
 */
export async function buildFromGo(options: GoBuildOptions): Promise<void> {
  const wanted = options.only ?? CONTROL_PLANE_BINARIES;
  // Kubernetes' own binaries share one module download, so they go first; etcd and kwok last.
  const order = [
    ...wanted.filter(isKubernetesBinary),
    ...wanted.filter((b) => b === 'etcd'),
    ...wanted.filter((b) => b === 'kwok'),
  ];
  const step = (binary: ControlPlaneBinary): string => `${order.indexOf(binary) + 1} of ${order.length}`;
  const staging = await mkdtemp(join(dirname(options.dest), '.build-'));
  try {
    // Placed as soon as built, so a failed kwok build keeps the Kubernetes binaries built before it.
    const kubernetes = order.filter((b) => b !== 'kwok');
    if (kubernetes.length > 0) {
      await buildKubernetes(options, order, staging, step);
      await placeBinaries(staging, options.dest, kubernetes);
    }
    if (wanted.includes('kwok')) {
      await buildKwok(options, staging, step('kwok'));
      // The stages go first and the version stamp last, so a stamped kwok has its own stages beside it.
      await placeBinaries(staging, options.dest, [KWOK_STAGES_FILE, 'kwok', KWOK_VERSION_FILE]);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function buildKubernetes(
  options: GoBuildOptions,
  order: readonly ControlPlaneBinary[],
  staging: string,
  step: (binary: ControlPlaneBinary) => string,
): Promise<void> {
  options.onProgress(`fetching k8s.io/kubernetes v${options.version} from the Go module proxy`);
  const kubernetes = await downloadModule(
    `k8s.io/kubernetes@v${options.version}`,
    `Kubernetes ${options.version}`,
    options.signal,
  );
  const k8sModule = join(options.workRoot, `kubernetes-${options.version}`);
  await writeWrapper(
    k8sModule,
    goModuleWrapper({
      require: [['k8s.io/kubernetes', `v${options.version}`]],
      replace: kubernetesStagingReplaces(await readFile(kubernetes.goMod, 'utf8'), options.version),
    }),
  );
  for (const binary of order.filter(isKubernetesBinary)) {
    await goBuild(
      k8sModule,
      KUBERNETES_COMMANDS[binary],
      join(staging, binary),
      kubernetesLdflags(options.version),
      { label: binary, step: step(binary), signal: options.signal },
      options.onProgress,
    );
  }
  if (order.includes('etcd')) {
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
      { label: `etcd ${etcdVersion}`, step: step('etcd'), signal: options.signal },
      options.onProgress,
    );
  }
}

/** Builds kwok at its pinned release and writes its default stages next to it. */
async function buildKwok(options: GoBuildOptions, staging: string, step: string): Promise<void> {
  options.onProgress(`fetching ${KWOK_MODULE} v${KWOK_VERSION} from the Go module proxy`);
  const kwok = await downloadModule(
    `${KWOK_MODULE}@v${KWOK_VERSION}`,
    `kwok ${KWOK_VERSION}`,
    options.signal,
  );
  const kwokModule = join(options.workRoot, `kwok-${KWOK_VERSION}`);
  await writeWrapper(
    kwokModule,
    goModuleWrapper({ require: [[KWOK_MODULE, `v${KWOK_VERSION}`]], replace: [] }),
  );
  await goBuild(
    kwokModule,
    `${KWOK_MODULE}/cmd/kwok`,
    join(staging, 'kwok'),
    ['-s', '-w', `-X ${KWOK_MODULE}/pkg/consts.Version=v${KWOK_VERSION}`],
    { label: `kwok ${KWOK_VERSION}`, step, signal: options.signal },
    options.onProgress,
  );
  await writeFile(join(staging, KWOK_STAGES_FILE), await defaultKwokStages(kwok.dir));
  await writeFile(join(staging, KWOK_VERSION_FILE), `${KWOK_VERSION}\n`);
}

interface DownloadedModule {
  dir: string;
  goMod: string;
}

/** Downloads `spec` (`module@version`) from the proxy; `what` names it in an error. */
async function downloadModule(spec: string, what: string, signal?: AbortSignal): Promise<DownloadedModule> {
  try {
    const stdout = await runGo(['mod', 'download', '-json', spec], { env: { GOFLAGS: '-mod=mod' }, signal });
    const info = JSON.parse(stdout) as { Dir: string; GoMod: string };
    return { dir: info.Dir, goMod: info.GoMod };
  } catch (err) {
    signal?.throwIfAborted();
    const detail = err instanceof ExecaError ? downloadError(err) : String(err);
    throw new TsoperatorError(
      `${what} could not be fetched from the Go module proxy (${detail}). Check the version (e.g. 1.37.2) and that the proxy is reachable.`,
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
  { label, step, signal }: { label: string; step: string; signal?: AbortSignal | undefined },
  onProgress: (line: string) => void,
): Promise<void> {
  const started = Date.now();
  const counts = new GoBuildCounts();
  onProgress(`building ${label} from the Go module proxy (${step}; this takes a few minutes)`);
  const ticker = setInterval(() => {
    onProgress(`  ${label}: ${counts.summary()}, ${Math.round((Date.now() - started) / 1000)} s`);
  }, 20_000);
  try {
    await runGo(
      ['build', '-v', '-mod=mod', '-trimpath', `-ldflags=${ldflags.join(' ')}`, '-o', output, pkg],
      {
        cwd: moduleDir,
        // Go's work folders go in the staging folder, which is removed whatever happens to `go`.
        env: { CGO_ENABLED: '0', GOTMPDIR: dirname(output) },
        signal,
        onStderr: (text) => counts.add(text),
      },
    );
  } catch (err) {
    signal?.throwIfAborted();
    const output = err instanceof ExecaError ? String(err.all ?? err.message) : String(err);
    throw new TsoperatorError(
      `Building ${label} with Go failed:\n${output.split('\n').slice(-30).join('\n')}`,
    );
  } finally {
    clearInterval(ticker);
  }
  onProgress(`built ${label} in ${Math.round((Date.now() - started) / 1000)} s (${step})`);
}

interface RunGoOptions {
  cwd?: string;
  env: Record<string, string>;
  signal?: AbortSignal | undefined;
  onStderr?: (text: string) => void;
}

/**
 * Runs `go` and answers its stdout. With a signal, `go` leads a process group of its own and an
 * abort ends the whole group: `go` alone would leave the compilers and linkers it started running.
 */
async function runGo(args: readonly string[], { cwd, env, signal, onStderr }: RunGoOptions): Promise<string> {
  signal?.throwIfAborted();
  const child = execa('go', args, {
    ...(cwd === undefined ? {} : { cwd }),
    env,
    all: true,
    detached: signal !== undefined,
  });
  if (onStderr) child.stderr?.on('data', (chunk: Buffer) => onStderr(chunk.toString()));
  const pid = child.pid;
  const stop = (signalName: NodeJS.Signals) => () => {
    if (pid !== undefined) signalGroup(pid, signalName);
  };
  const terminate = stop('SIGTERM');
  // A group of its own no longer gets the terminal's Ctrl-C: it goes when this process exits.
  const kill = stop('SIGKILL');
  signal?.addEventListener('abort', terminate, { once: true });
  if (signal) process.once('exit', kill);
  try {
    return (await child).stdout;
  } finally {
    signal?.removeEventListener('abort', terminate);
    process.removeListener('exit', kill);
    // What ignored SIGTERM, or outlived `go`, goes now.
    if (signal?.aborted) kill();
  }
}

/** The files placed beside the binaries that are not executables. */
const KWOK_DATA_FILES: readonly string[] = [KWOK_STAGES_FILE, KWOK_VERSION_FILE];

async function placeBinaries(staging: string, dest: string, names: readonly string[]): Promise<void> {
  await mkdir(dest, { recursive: true });
  for (const name of names) {
    const target = join(dest, name);
    // Copy then rename, so a reader of `dest` never sees a half-written binary.
    await copyFile(join(staging, name), `${target}.partial`);
    await chmod(`${target}.partial`, KWOK_DATA_FILES.includes(name) ? 0o644 : 0o755);
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
