import { formatChanges } from '../format-changes.ts';
import { PROJECT_RUNTIME_DIR } from '../runtime-files.ts';
import type { UpdateResult } from './update-project.ts';

/**
 * The update's plan as the user reads it: the commands replayed and those the old version does
 * not know, one line per merged, added or deleted file, and the runtime, which is replaced whole,
 * as one line (every file of it changes with the version).
 */
export function formatUpdate(result: UpdateResult): string {
  const prefix = `${PROJECT_RUNTIME_DIR}/`;
  const runtime = result.plan.changes.filter((c) => c.path.startsWith(prefix));
  const others = result.plan.changes.filter((c) => !c.path.startsWith(prefix));
  const deleted = runtime.filter((c) => c.action === 'delete').length;
  const runtimeLine =
    runtime.length === 0
      ? ''
      : `${'replace'.padEnd('unchanged'.length)} ${prefix} (tsoperator ${result.toVersion}'s: ` +
        `${(runtime.length - deleted).toString()} files written, ${deleted.toString()} deleted)\n`;
  const commands = result.commands
    .map((command) => `  tsoperator ${command.map(shellWord).join(' ')}\n`)
    .join('');
  const skipped = result.skipped
    .map(
      (command) =>
        `tsoperator ${result.fromVersion} has no \`${command.map(shellWord).join(' ')}\`: ` +
        `its files are taken as new in ${result.toVersion}\n`,
    )
    .join('');
  return (
    `regenerated from PROJECT with each version by:\n${commands}${skipped}` +
    `update from tsoperator ${result.fromVersion} to ${result.toVersion}:\n${formatChanges(others)}${runtimeLine}`
  );
}

/** An argument as a shell reads it back: quoted when it holds anything but plain characters. */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}
