import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa, ExecaError } from 'execa';
import { TsoperatorError } from '../../src/errors.ts';
import { goAvailable } from '../../src/envtest/go-build.ts';
import { withFileLock } from '../../src/envtest/lock.ts';
import { cacheRoot, platform } from '../../src/envtest/paths.ts';

/**
 * The controller-tools release our generators are measured against: the newest one that builds
 * with the Go toolchain CI has (Go 1.26).
 */
export const CONTROLLER_TOOLS_VERSION = 'v0.23.0';

const CONTROLLER_GEN_PACKAGE = 'sigs.k8s.io/controller-tools/cmd/controller-gen';

/** Where one controller-gen build lives: `<cache>/controller-gen/v0.23.0-linux-amd64/controller-gen`. */
export function controllerGenPath(root: string = cacheRoot()): string {
  const { os, arch } = platform();
  return join(root, 'controller-gen', `${CONTROLLER_TOOLS_VERSION}-${os}-${arch}`, 'controller-gen');
}

/**
 * The path of a controller-gen binary, built from the Go module proxy on first use and reused
 * afterwards. Test files running in parallel share one build through a file lock.
 */
export async function ensureControllerGen(root: string = cacheRoot()): Promise<string> {
  const binary = controllerGenPath(root);
  if (existsSync(binary)) return binary;
  const folder = join(binary, '..');
  await mkdir(join(folder, '..'), { recursive: true });
  return withFileLock(`${folder}.lock`, async () => {
    if (!existsSync(binary)) await installControllerGen(folder);
    return binary;
  });
}

async function installControllerGen(folder: string): Promise<void> {
  if (!(await goAvailable())) {
    throw new TsoperatorError(
      `controller-gen ${CONTROLLER_TOOLS_VERSION} is built from the Go module proxy: install Go 1.26 or newer and put \`go\` on PATH.`,
    );
  }
  const staging = await mkdtemp(`${folder}.build-`);
  try {
    await execa('go', ['install', '-trimpath', `${CONTROLLER_GEN_PACKAGE}@${CONTROLLER_TOOLS_VERSION}`], {
      env: { GOBIN: staging, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' },
      all: true,
    });
    await mkdir(folder, { recursive: true });
    // Rename into place, so a reader never sees a half-written binary.
    await rename(join(staging, 'controller-gen'), join(folder, 'controller-gen'));
  } catch (err) {
    const output = err instanceof ExecaError ? String(err.all ?? err.message) : String(err);
    throw new TsoperatorError(
      `Building controller-gen ${CONTROLLER_TOOLS_VERSION} with Go failed:\n${output.split('\n').slice(-20).join('\n')}`,
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** What one controller-gen run writes, by generator. */
export interface ControllerGenOutput {
  /** `<output>/crd`: one `<group>_<plural>.yaml` per CRD. */
  crdDir: string;
  /** `<output>/rbac/role.yaml`, when any rbac marker was found. */
  roleFile: string;
  /** `<output>/webhook/manifests.yaml`, when any webhook marker was found. */
  webhookFile: string;
}

/** controller-gen's `crd:` generator options, e.g. `{ maxDescLen: 0 }` for `crd:maxDescLen=0`. */
export interface CrdOptions {
  readonly maxDescLen?: number;
}

/**
 * Runs `controller-gen crd rbac:roleName=manager-role webhook paths=./...` in a Go module, writing
 * each generator's output under `outputDir` the way a Kubebuilder Makefile lays out `config/`.
 */
export async function runControllerGen(
  moduleDir: string,
  outputDir: string,
  crdOptions: CrdOptions = {},
): Promise<ControllerGenOutput> {
  const binary = await ensureControllerGen();
  const output: ControllerGenOutput = {
    crdDir: join(outputDir, 'crd'),
    roleFile: join(outputDir, 'rbac', 'role.yaml'),
    webhookFile: join(outputDir, 'webhook', 'manifests.yaml'),
  };
  const args = [
    crdOptions.maxDescLen === undefined ? 'crd' : `crd:maxDescLen=${crdOptions.maxDescLen}`,
    'rbac:roleName=manager-role',
    'webhook',
    'paths=./...',
    `output:crd:artifacts:config=${output.crdDir}`,
    `output:rbac:artifacts:config=${join(outputDir, 'rbac')}`,
    `output:webhook:artifacts:config=${join(outputDir, 'webhook')}`,
  ];
  try {
    await execa(binary, args, { cwd: moduleDir, all: true, env: { GOFLAGS: '-mod=mod' } });
  } catch (err) {
    const detail = err instanceof ExecaError ? String(err.all ?? err.message) : String(err);
    throw new TsoperatorError(`controller-gen failed in ${moduleDir}:\n${detail}`);
  }
  return output;
}
