import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { TsoperatorError } from '../../errors.ts';
import type { CommandLine } from './replay-commands.ts';
import type { TsoperatorPackage } from './tsoperator-package.ts';
import { isUnknownToCli } from './unknown-command.ts';

/** How a replay takes a command its version does not know. */
export interface ReplayOptions {
  /**
   * Skip it, and return it: the old version's replay, in a project a newer version went on with
   * (`edit --plugins grafana` added by 0.1.0 to a 0.0.9 project). Else it is an error.
   */
  readonly skipUnknown: boolean;
}

/**
 * Makes the project anew in `dir` (created, and empty) by running each command with `pkg`'s own
 * CLI, as a user of that version would have typed them: what that version generates for it.
 * Returns the commands skipped as unknown to that version (a failed command writes nothing).
 */
export async function replayProject(
  pkg: TsoperatorPackage,
  commands: readonly CommandLine[],
  dir: string,
  options: ReplayOptions,
): Promise<CommandLine[]> {
  await mkdir(dir, { recursive: true });
  const bin = join(pkg.dir, 'bin', 'tsoperator.js');
  const skipped: CommandLine[] = [];
  for (const command of commands) {
    const run = await execa(process.execPath, [bin, ...command], {
      cwd: dir,
      all: true,
      reject: false,
      stdin: 'ignore',
    });
    if (run.exitCode === 0) continue;
    if (options.skipUnknown && isUnknownToCli(run.all)) {
      skipped.push(command);
      continue;
    }
    throw new TsoperatorError(
      `tsoperator ${pkg.version} could not regenerate the project: \`tsoperator ${command.join(' ')}\` failed:\n${run.all}`,
    );
  }
  return skipped;
}
