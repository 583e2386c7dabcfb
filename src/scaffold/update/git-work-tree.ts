import { execa } from 'execa';
import { TsoperatorError, UsageError } from '../../errors.ts';

/** Fails with what to do when git, which the update merges with, cannot be run. */
export async function requireGit(): Promise<void> {
  const run = await execa('git', ['--version'], { reject: false, stdin: 'ignore' });
  if (run.exitCode !== 0) {
    throw new TsoperatorError(
      'alpha update merges with git (git merge-file), which could not be run: install git and run it again',
    );
  }
}

/**
 * Refuses to update a project that is not in git or has uncommitted changes, as Kubebuilder's
 * update does: the update rewrites files and may leave conflict markers, and the user reviews and
 * undoes it with git, which needs their own work committed first.
 */
export async function requireCommittedProject(dir: string): Promise<void> {
  const status = await execa('git', ['status', '--porcelain', '--untracked-files=normal', '--', '.'], {
    cwd: dir,
    reject: false,
    stdin: 'ignore',
  });
  if (status.exitCode !== 0) {
    throw new UsageError(
      'the project is not in a git repository: commit it first (git init, git add, git commit), so that ' +
        'you can review and undo the update, or re-run with --force',
    );
  }
  if (status.stdout.trim() !== '') {
    throw new UsageError(
      `the project has uncommitted changes:\n${status.stdout.trimEnd()}\n` +
        'commit or stash them first, so that you can review and undo the update, or re-run with --force',
    );
  }
}
