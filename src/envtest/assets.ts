import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TsoperatorError } from '../errors.ts';
import {
  ARCHIVE_BINARIES,
  binariesFor,
  BUILT_BINARIES,
  CONTROL_PLANE_BINARIES,
  type ControlPlaneBinary,
  missingBinaries,
} from './binaries.ts';
import { DEFAULT_INDEX_URL, downloadRelease } from './download.ts';
import { buildFromGo, goAvailable } from './go-build.ts';
import { kwokIsCurrent } from './kwok-release.ts';
import { withFileLock } from './lock.ts';
import { assetsDir, cacheRoot } from './paths.ts';
import { ProgressFollower, sharedProgress } from './shared-progress.ts';
import { DEFAULT_KUBERNETES_VERSION, parseKubernetesVersion } from './versions.ts';

/** Where a folder of control-plane binaries came from. */
export type AssetsSource = 'env' | 'cache' | 'download' | 'build';

export interface Assets {
  /** Folder holding etcd, kube-apiserver, kubectl (and the Go-built ones not in `missing`). */
  readonly dir: string;
  readonly source: AssetsSource;
  /** Binaries this folder lacks; an envtest archive has none of BUILT_BINARIES. */
  readonly missing: readonly string[];
}

export interface ResolveAssetsOptions {
  /** Kubernetes version. Default: DEFAULT_KUBERNETES_VERSION. */
  version?: string;
  /** Try the official envtest release archive. Default: true. */
  allowDownload?: boolean;
  /** Build from the Go module proxy when `go` is on PATH. Default: true. */
  allowBuild?: boolean;
  /** Release index. Default: controller-tools' envtest-releases.yaml. */
  indexUrl?: string;
  /** Cache folder. Default: cacheRoot(). */
  cacheDir?: string;
  /**
   * Also obtain kube-scheduler and kwok, which only an environment with nodes runs; without them a
   * failed kwok build cannot fail a plain control plane. Default: false.
   */
  nodes?: boolean;
  /** Environment to read KUBEBUILDER_ASSETS from. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Receives one line per step of a long download or build, this process's or, while it waits for
   * the cache's lock, the one of the process holding it. Default: nothing.
   */
  onProgress?: (line: string) => void;
  /** Aborts the wait for the cache's lock and a build, rejecting with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Finds the control-plane binaries for a Kubernetes version, in order: `KUBEBUILDER_ASSETS`, the
 * cache, a download of the envtest release archive (checksum verified), a build from the Go module
 * proxy. Downloads and builds land in the cache, so the next call answers at once.
 */
export async function resolveAssets(options: ResolveAssetsOptions = {}): Promise<Assets> {
  const env = options.env ?? process.env;
  const fromEnv = env['KUBEBUILDER_ASSETS'];
  if (fromEnv) return assetsFromEnv(fromEnv);
  const version = parseKubernetesVersion(options.version ?? DEFAULT_KUBERNETES_VERSION);
  const root = options.cacheDir ?? cacheRoot(env);
  const dir = assetsDir(version, root);
  const wanted = binariesFor(options.nodes ?? false);
  const cached = cachedAssets(dir, wanted);
  if (cached) return cached;
  await mkdir(dirname(dir), { recursive: true });
  const lockDir = `${dir}.lock`;
  const progressFile = join(lockDir, 'progress');
  const progress = options.onProgress ?? (() => undefined);
  return withFileLock(
    lockDir,
    async () => {
      // Another process may have filled the cache while this one waited for the lock.
      const filled = cachedAssets(dir, wanted);
      if (filled) return filled;
      return fetchAssets(version.text, dir, root, wanted, {
        ...options,
        onProgress: sharedProgress(progressFile, progress),
      });
    },
    { onBusy: followOwner(progressFile, version.text, progress), progressFile, signal: options.signal },
  );
}

/** While another process fetches the binaries: say so once, then pass its progress on. */
function followOwner(
  progressFile: string,
  version: string,
  progress: (line: string) => void,
): (ownerPid: number | undefined) => Promise<void> {
  const follower = new ProgressFollower(progressFile, progress);
  let announced = false;
  return async (ownerPid) => {
    if (!announced) {
      const owner = ownerPid === undefined ? 'another process' : `process ${ownerPid}`;
      progress(`waiting for ${owner} to download or build the Kubernetes ${version} binaries:`);
      announced = true;
    }
    await follower.poll();
  };
}

function assetsFromEnv(dir: string): Assets {
  const missing = missingBinaries(dir);
  const core = missing.filter((name) => ARCHIVE_BINARIES.includes(name as (typeof ARCHIVE_BINARIES)[number]));
  if (core.length > 0) {
    throw new TsoperatorError(
      `KUBEBUILDER_ASSETS=${dir} lacks ${core.join(', ')}: point it at a folder holding ${CONTROL_PLANE_BINARIES.join(', ')}, or unset it to let tsoperator find them.`,
    );
  }
  return { dir, source: 'env', missing };
}

/** The cached folder, when it holds every binary of `wanted`; `missing` lists the others it lacks. */
function cachedAssets(dir: string, wanted: readonly ControlPlaneBinary[]): Assets | undefined {
  if (!existsSync(dir)) return undefined;
  if (missingFromCache(dir, wanted).length > 0) return undefined;
  return { dir, source: 'cache', missing: missingFromCache(dir) };
}

/** The binaries among `names` the cached folder lacks; a kwok of another release counts as lacking. */
function missingFromCache(
  dir: string,
  names: readonly ControlPlaneBinary[] = CONTROL_PLANE_BINARIES,
): ControlPlaneBinary[] {
  return names.filter(
    (name) => missingBinaries(dir, [name]).length > 0 || (name === 'kwok' && !kwokIsCurrent(dir)),
  );
}

async function fetchAssets(
  version: string,
  dir: string,
  root: string,
  wanted: readonly ControlPlaneBinary[],
  options: ResolveAssetsOptions,
): Promise<Assets> {
  const progress = options.onProgress ?? (() => undefined);
  const tried: string[] = [];
  const canBuild = (options.allowBuild ?? true) && (await goAvailable());
  const buildMissing = () =>
    buildFromGo({
      version,
      dest: dir,
      workRoot: join(root, 'envtest', 'build'),
      only: missingFromCache(dir, wanted).filter((name) => BUILT_BINARIES.includes(name)),
      onProgress: progress,
      signal: options.signal,
    });
  if (missingBinaries(dir, ARCHIVE_BINARIES).length === 0) {
    // An earlier download made where Go was not, or a cache from before a binary was added: only
    // the Go-built binaries can be added.
    if (!canBuild) return { dir, source: 'cache', missing: missingFromCache(dir) };
    await buildMissing();
    return { dir, source: 'build', missing: missingFromCache(dir) };
  }
  if (options.allowDownload ?? true) {
    const outcome = await downloadRelease({
      version,
      dest: dir,
      indexUrl: options.indexUrl ?? DEFAULT_INDEX_URL,
      onProgress: progress,
      signal: options.signal,
    });
    if (outcome.kind === 'downloaded') {
      // Envtest archives carry none of BUILT_BINARIES; build them when Go is here.
      if (canBuild) await buildMissing();
      return { dir, source: 'download', missing: missingFromCache(dir) };
    }
    tried.push(`download: ${outcome.reason}`);
    progress(`no envtest release archive: ${outcome.reason}`);
  }
  if (canBuild) {
    await buildFromGo({
      version,
      dest: dir,
      workRoot: join(root, 'envtest', 'build'),
      only: wanted,
      onProgress: progress,
      signal: options.signal,
    });
    return { dir, source: 'build', missing: missingFromCache(dir) };
  }
  tried.push(options.allowBuild === false ? 'build: turned off (--no-build)' : 'build: `go` is not on PATH');
  throw new TsoperatorError(
    `No control-plane binaries for Kubernetes ${version}. Tried:\n  - ${tried.join('\n  - ')}\nInstall Go (https://go.dev/dl) so tsoperator can build them, or set KUBEBUILDER_ASSETS to a folder holding ${CONTROL_PLANE_BINARIES.join(', ')}.`,
  );
}
