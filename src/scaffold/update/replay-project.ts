import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { TsoperatorError } from '../../errors.ts';
import type { CommandLine } from './replay-commands.ts';
import type { TsoperatorPackage } from './tsoperator-package.ts';

/**
 * Makes the project anew in `dir` (created, and empty) by running each command with `pkg`'s own
 * CLI, as a user of that version would have typed them: what that version generates for it.
 */
export async function replayProject(
  pkg: TsoperatorPackage,
  commands: readonly CommandLine[],
  dir: string,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const bin = join(pkg.dir, 'bin', 'tsoperator.js');
  for (const command of commands) {
    const run = await execa(process.execPath, [bin, ...command], {
      cwd: dir,
      all: true,
      reject: false,
      stdin: 'ignore',
    });
    if (run.exitCode !== 0) {
      throw new TsoperatorError(
        `tsoperator ${pkg.version} could not regenerate the project: \`tsoperator ${command.join(' ')}\` failed:\n${run.all}`,
      );
    }
  }
}
