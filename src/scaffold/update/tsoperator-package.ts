import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { cacheRoot } from '../../envtest/paths.ts';
import { TsoperatorError, UsageError } from '../../errors.ts';
import { packageJsonPath } from '../package-paths.ts';

/** An installed tsoperator package whose CLI can be run: its folder and version. */
export interface TsoperatorPackage {
  readonly dir: string;
  readonly version: string;
}

/** The npm package name tsoperator is published under. */
const PACKAGE_NAME = 'tsoperator';

/** This tsoperator, the one running. */
export async function currentPackage(): Promise<TsoperatorPackage> {
  const dir = dirname(packageJsonPath());
  return { dir, version: await packageVersion(dir) };
}

/**
 * Another tsoperator version, to run its CLI: `from` is a package folder (used where it is, with
 * its own dependencies) or a packed `.tgz`; without it, `tsoperator@<version>` from the npm
 * registry. A tarball or registry version is installed with npm into tsoperator's cache, outside
 * the project, once.
 */
export async function otherPackage(request: { from?: string; version?: string }): Promise<TsoperatorPackage> {
  if (request.from !== undefined) {
    const from = resolve(request.from);
    if (!existsSync(from)) throw new UsageError(`--from ${request.from}: no such file or folder`);
    const found = (await stat(from)).isDirectory()
      ? { dir: from, version: await packageVersion(from) }
      : await installed(from, `tarball-${await fileHash(from)}`);
    if (request.version !== undefined && request.version !== found.version) {
      throw new UsageError(
        `--from ${request.from} is tsoperator ${found.version}, not ${request.version}: give one of the two, or matching ones`,
      );
    }
    return found;
  }
  if (request.version === undefined) throw new UsageError('say which tsoperator version to start from');
  return installed(`${PACKAGE_NAME}@${request.version}`, `${PACKAGE_NAME}-${request.version}`);
}

/** `spec` installed with npm under `<cache>/packages/<key>`, or the install already there. */
async function installed(spec: string, key: string): Promise<TsoperatorPackage> {
  const prefix = join(cacheRoot(), 'packages', key);
  const dir = join(prefix, 'node_modules', PACKAGE_NAME);
  if (existsSync(join(dir, 'package.json'))) return { dir, version: await packageVersion(dir) };
  // Installed beside and renamed into place, so that an interrupted install is never taken for one.
  const partial = `${prefix}.partial-${process.pid}`;
  await mkdir(partial, { recursive: true });
  const npm = await execa(
    'npm',
    ['install', '--prefix', partial, '--no-save', '--omit=dev', '--no-audit', '--no-fund', spec],
    { all: true, reject: false, stdin: 'ignore' },
  );
  if (npm.exitCode !== 0) {
    await rm(partial, { recursive: true, force: true });
    throw new TsoperatorError(
      `could not install ${spec} with npm:\n${npm.all}\n` +
        'Give the old tsoperator with --from <folder|package.tgz> instead.',
    );
  }
  await rename(partial, prefix).catch(async (err: unknown) => {
    // Another run installed it first: theirs is as good.
    await rm(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  });
  return { dir, version: await packageVersion(dir) };
}

async function packageVersion(dir: string): Promise<string> {
  let pkg: { name?: unknown; version?: unknown };
  try {
    pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as typeof pkg;
  } catch (err) {
    throw new TsoperatorError(`${dir} is not a tsoperator package (no readable package.json)`, {
      cause: err,
    });
  }
  if (pkg.name !== PACKAGE_NAME || typeof pkg.version !== 'string') {
    throw new TsoperatorError(
      `${dir} is not a tsoperator package (its package.json names ${String(pkg.name)})`,
    );
  }
  if (!existsSync(join(dir, 'bin', 'tsoperator.js'))) {
    throw new TsoperatorError(`${dir} is a tsoperator package without its CLI (bin/tsoperator.js)`);
  }
  return pkg.version;
}

async function fileHash(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex')
    .slice(0, 16);
}
