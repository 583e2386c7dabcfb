import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa, ExecaError } from 'execa';
import { TsoperatorError } from '../../src/errors.ts';
import { goAvailable } from '../../src/envtest/go-build.ts';
import { withFileLock } from '../../src/envtest/lock.ts';
import { cacheRoot, platform } from '../../src/envtest/paths.ts';

/**
 * The operator framework's validation library the bundle is checked with: the newest release the
 * Go module proxy serves (it needs Go 1.26.3, which CI has).
 */
export const OPERATOR_FRAMEWORK_API_VERSION = 'v0.45.0';

const SOURCE = join(import.meta.dirname, 'bundle-validator', 'main.go');

/** One error or warning of the operator framework's validators. */
export interface BundleFinding {
  readonly type: string;
  readonly level: 'Error' | 'Warning';
  readonly field?: string;
  readonly detail: string;
}

/** What the validators say about a bundle folder; `loadError` when it could not be read as one. */
export interface BundleValidation {
  readonly loadError?: string;
  readonly errors: readonly BundleFinding[];
  readonly warnings: readonly BundleFinding[];
}

/**
 * Validates a bundle folder with operator-framework/api's default bundle validators (those
 * `operator-sdk bundle validate` runs) and its OperatorHub validator.
 */
export async function validateBundle(bundleDir: string): Promise<BundleValidation> {
  const binary = await ensureBundleValidator();
  const { stdout } = await execa(binary, [bundleDir]);
  return JSON.parse(stdout) as BundleValidation;
}

/**
 * The validator program, built on first use from test/support/bundle-validator/main.go against the
 * Go module proxy's operator-framework/api and cached outside the repository; a change to the
 * program builds a new one. Test files running in parallel share one build through a file lock.
 */
export async function ensureBundleValidator(root: string = cacheRoot()): Promise<string> {
  const source = await readFile(SOURCE, 'utf8');
  const digest = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const { os, arch } = platform();
  const folder = join(root, 'bundle-validator', `${OPERATOR_FRAMEWORK_API_VERSION}-${digest}-${os}-${arch}`);
  const binary = join(folder, 'bundle-validator');
  if (existsSync(binary)) return binary;
  await mkdir(join(folder, '..'), { recursive: true });
  return withFileLock(`${folder}.lock`, async () => {
    if (!existsSync(binary)) await buildBundleValidator(folder);
    return binary;
  });
}

async function buildBundleValidator(folder: string): Promise<void> {
  if (!(await goAvailable())) {
    throw new TsoperatorError(
      `the bundle validator is built against operator-framework/api ${OPERATOR_FRAMEWORK_API_VERSION}: install Go 1.26.3 or newer and put \`go\` on PATH.`,
    );
  }
  const staging = await mkdtemp(`${folder}.build-`);
  try {
    await copyFile(SOURCE, join(staging, 'main.go'));
    const goMod = [
      'module tsoperator.test/bundle-validator',
      '',
      'go 1.26.3',
      '',
      `require github.com/operator-framework/api ${OPERATOR_FRAMEWORK_API_VERSION}`,
      '',
    ].join('\n');
    await writeFile(join(staging, 'go.mod'), goMod);
    const env = { CGO_ENABLED: '0', GOFLAGS: '-mod=mod' };
    await execa('go', ['mod', 'tidy'], { cwd: staging, env, all: true });
    await execa('go', ['build', '-trimpath', '-o', 'bundle-validator', '.'], {
      cwd: staging,
      env,
      all: true,
    });
    await mkdir(folder, { recursive: true });
    // Rename into place, so a reader never sees a half-written binary.
    await rename(join(staging, 'bundle-validator'), join(folder, 'bundle-validator'));
  } catch (err) {
    const output = err instanceof ExecaError ? String(err.all ?? err.message) : String(err);
    throw new TsoperatorError(
      `Building the bundle validator with Go failed:\n${output.split('\n').slice(-20).join('\n')}`,
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
