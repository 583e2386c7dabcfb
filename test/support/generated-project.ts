import assert from 'node:assert/strict';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { repoRoot } from './cli.ts';

/** How a command run in a generated project ended: its exit code, and its stdout and stderr together. */
export interface CommandResult {
  readonly exitCode: number;
  readonly output: string;
}

/** Runs a command in `cwd` with `vars` added to the environment, whatever its exit code. */
export async function runAnyway(
  cwd: string,
  file: string,
  args: readonly string[],
  vars: Readonly<Record<string, string>> = {},
): Promise<CommandResult> {
  // Without NODE_TEST_CONTEXT, a generated project's own `node --test` runs its tests instead of
  // taking itself for a test file of this run and skipping them.
  const env: Record<string, string | undefined> = { ...process.env, ...vars };
  delete env['NODE_TEST_CONTEXT'];
  const result = await execa(file, args, { cwd, all: true, reject: false, env, extendEnv: false });
  return { exitCode: result.exitCode ?? -1, output: result.all };
}

/** Runs a command in `cwd`, failing with its output when it fails; returns stdout and stderr together. */
export async function runIn(cwd: string, file: string, args: readonly string[]): Promise<string> {
  const { exitCode, output } = await runAnyway(cwd, file, args);
  assert.equal(exitCode, 0, `${file} ${args.join(' ')} failed:\n${output}`);
  return output;
}

/** Packs this checkout (built with `npm run build` first) into `root`; returns the tarball's path. */
export async function packCheckout(root: string): Promise<string> {
  await runIn(repoRoot, 'npm', ['pack', '--silent', '--pack-destination', root]);
  const tarball = (await readdir(root)).find(
    (name) => name.startsWith('tsoperator-') && name.endsWith('.tgz'),
  );
  assert.ok(tarball, 'npm pack wrote a tarball');
  return join(root, tarball);
}

/** Runs the built `tsoperator` CLI in `project`, failing with its output when it fails. */
export function tsoperatorIn(project: string, args: readonly string[]): Promise<string> {
  return runIn(project, process.execPath, [join(repoRoot, 'bin', 'tsoperator.js'), ...args]);
}

/** npm install of a packed tsoperator into a generated project, as its devDependency. */
export async function installTsoperator(project: string, tarball: string): Promise<void> {
  await runIn(project, 'npm', ['install', '--no-audit', '--no-fund', '--save-dev', tarball]);
}

/**
 * A project in `root/webapp-operator` made as a user makes one: `tsoperator init` with `initFlags`,
 * then each of `createApis` as `tsoperator create api` arguments, then npm install with tsoperator
 * packed from this checkout (`npm run build` first). Returns the project's folder.
 */
export async function installedProject(
  root: string,
  createApis: readonly (readonly string[])[],
  initFlags: readonly string[] = [],
): Promise<string> {
  const project = join(root, 'webapp-operator');
  await mkdir(project);
  const tarball = await packCheckout(root);
  const init = ['init', '--domain', 'example.org', '--project-name', 'webapp-operator', ...initFlags];
  await tsoperatorIn(project, init);
  for (const args of createApis) await tsoperatorIn(project, ['create', 'api', ...args]);
  await installTsoperator(project, tarball);
  return project;
}
