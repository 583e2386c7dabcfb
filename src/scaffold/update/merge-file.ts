import { execa } from 'execa';
import { TsoperatorError } from '../../errors.ts';

/** The three sides of a merge, each a file on disk, and the names its conflict markers give them. */
export interface MergeSides {
  readonly ours: { readonly path: string; readonly label: string };
  readonly base: { readonly path: string; readonly label: string };
  readonly theirs: { readonly path: string; readonly label: string };
}

/** A merged text, and how many conflicts it marks (0 for a clean merge). */
export interface MergeResult {
  readonly text: string;
  readonly conflicts: number;
}

/**
 * The 3-way merge of one file by `git merge-file`: the merge every git user already reads and
 * resolves, standard `<<<<<<<` / `=======` / `>>>>>>>` markers, labelled with each side's name.
 * Nothing is written: the result comes back as text.
 */
export async function mergeFile(sides: MergeSides): Promise<MergeResult> {
  const run = await execa(
    'git',
    [
      'merge-file',
      '--stdout',
      '-L',
      sides.ours.label,
      '-L',
      sides.base.label,
      '-L',
      sides.theirs.label,
      sides.ours.path,
      sides.base.path,
      sides.theirs.path,
    ],
    { reject: false, stripFinalNewline: false, stdin: 'ignore' },
  );
  // git merge-file exits with the number of conflicts (capped at 127), and above that on errors.
  const code = run.exitCode ?? -1;
  if (code < 0 || code > 127) {
    throw new TsoperatorError(`git merge-file could not merge ${sides.ours.path}: ${run.stderr}`);
  }
  return { text: run.stdout, conflicts: code };
}
