import { basename, dirname, join } from 'node:path';
import { TsoperatorError } from '../errors.ts';
import type { FileWrite } from './change.ts';
import { nodeFileSystem, type ApplyFileSystem } from './file-system.ts';
import { holdSignals, type SignalHold } from './signal-hold.ts';

/** What was done so far, so that a failure can undo it. */
interface Journal {
  readonly createdDirs: string[];
  readonly tempFiles: string[];
  /** Targets renamed into place, with the backup of the file they replaced. */
  readonly committed: { target: string; backup: string | undefined }[];
}

/**
 * Writes (and removes) all the files or none. Every file is first written to a temporary file
 * beside its target; only when all of them are written are they renamed into place, each replaced
 * or removed file kept as a backup. A failure at any step restores the backups, removes what was added and rethrows, so the
 * folder is as it was. Ctrl-C (or SIGTERM, SIGHUP) is held meanwhile: before the last rename it is
 * such a failure; after it, the signal ends the process once every file is in place.
 *
 * @example
 * ```ts
 * await applyWrites('/tmp/project', [{ path: 'README.md', content: '# demo\n' }]);
 * ```
 */
export async function applyWrites(
  root: string,
  writes: readonly FileWrite[],
  fs: ApplyFileSystem = nodeFileSystem,
): Promise<void> {
  const hold = holdSignals();
  try {
    await writeAllOrNone(root, writes, fs, hold);
  } catch (err) {
    hold.release(false);
    throw err;
  }
  hold.release(true);
}

async function writeAllOrNone(
  root: string,
  writes: readonly FileWrite[],
  fs: ApplyFileSystem,
  hold: SignalHold,
): Promise<void> {
  const journal: Journal = { createdDirs: [], tempFiles: [], committed: [] };
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  try {
    const staged = await stageAll(root, writes, fs, journal, suffix);
    for (const { target, temp } of staged) {
      throwIfInterrupted(hold);
      await commit(target, temp, fs, journal, suffix);
    }
  } catch (err) {
    await rollBack(fs, journal);
    const reason = err instanceof Error ? err.message : String(err);
    throw new TsoperatorError(`could not write the scaffold, nothing was changed: ${reason}`, { cause: err });
  }
  for (const { backup } of journal.committed) if (backup !== undefined) await fs.removeFile(backup);
}

function throwIfInterrupted(hold: SignalHold): void {
  const signal = hold.received();
  if (signal !== undefined) throw new Error(`interrupted by ${signal}`);
}

async function stageAll(
  root: string,
  writes: readonly FileWrite[],
  fs: ApplyFileSystem,
  journal: Journal,
  suffix: string,
): Promise<{ target: string; temp: string | undefined }[]> {
  const staged: { target: string; temp: string | undefined }[] = [];
  for (const [index, write] of writes.entries()) {
    const target = join(root, write.path);
    if ('removed' in write) {
      staged.push({ target, temp: undefined });
      continue;
    }
    await ensureDir(dirname(target), fs, journal);
    const temp = join(dirname(target), `.${basename(target)}.tsoperator-tmp-${suffix}-${index}`);
    journal.tempFiles.push(temp);
    await fs.writeFile(temp, write.content);
    staged.push({ target, temp });
  }
  return staged;
}

/**
 * Puts one staged file in place (or, without one, removes the target), keeping the file it replaces
 * as a backup until all are in place.
 */
async function commit(
  target: string,
  temp: string | undefined,
  fs: ApplyFileSystem,
  journal: Journal,
  suffix: string,
): Promise<void> {
  let backup: string | undefined;
  if (await fs.exists(target)) {
    backup = `${target}.tsoperator-bak-${suffix}`;
    await fs.rename(target, backup);
  }
  journal.committed.push({ target, backup });
  if (temp === undefined) return;
  await fs.rename(temp, target);
  journal.tempFiles.splice(journal.tempFiles.indexOf(temp), 1);
}

/** Creates `dir` and its missing parents, noting each one created. */
async function ensureDir(dir: string, fs: ApplyFileSystem, journal: Journal): Promise<void> {
  if (await fs.exists(dir)) return;
  await ensureDir(dirname(dir), fs, journal);
  await fs.mkdir(dir);
  journal.createdDirs.push(dir);
}

/** Undoes the journal, newest first; keeps going past errors so that as much as possible is restored. */
async function rollBack(fs: ApplyFileSystem, journal: Journal): Promise<void> {
  const attempt = async (step: () => Promise<void>): Promise<void> => {
    try {
      await step();
    } catch {
      // A step that cannot be undone must not stop the others from being undone.
    }
  };
  for (const { target, backup } of journal.committed.toReversed()) {
    await attempt(() => fs.removeFile(target));
    if (backup !== undefined) await attempt(() => fs.rename(backup, target));
  }
  for (const temp of journal.tempFiles) await attempt(() => fs.removeFile(temp));
  for (const dir of journal.createdDirs.toReversed()) await attempt(() => fs.removeDir(dir));
}
