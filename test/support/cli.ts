import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The repository's root folder. */
export const repoRoot = join(import.meta.dirname, '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `tsoperator` bin (run `npm run build` first) as a user would. */
export function runTsoperator(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'tsoperator.js'), ...args], {
      cwd: options.cwd ?? repoRoot,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs the CLI from its TypeScript sources in a child process (no build needed), in `cwd`:
 * capturing an in-process run's stdout would also swallow the test runner's reports.
 */
export function runTsoperatorSource(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnTsoperatorSource(args, cwd, env);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The CLI from its TypeScript sources as a child process, stdout and stderr piped: for a test to signal it. */
export function spawnTsoperatorSource(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): ChildProcessByStdio<null, Readable, Readable> {
  const cli = pathToFileURL(join(repoRoot, 'src', 'cli', 'main.ts')).href;
  const script =
    `const { runCli } = await import(${JSON.stringify(cli)}); ` +
    'process.exitCode = await runCli(process.argv.slice(1));';
  return spawn(process.execPath, ['--input-type=module', '--eval', script, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
