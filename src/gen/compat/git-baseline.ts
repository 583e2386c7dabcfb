import { execa } from 'execa';
import { TsoperatorError } from '../../errors.ts';
import { CRD_BASES_DIR } from '../crd/crd-files.ts';
import type { Baseline } from './compared-crd.ts';
import { crdsInYaml } from './crds-in-yaml.ts';

/** Why no baseline was found when none was asked for by name. */
export interface NoBaseline {
  readonly missing: string;
}

/**
 * `--against <ref>`: the CRD files committed under config/crd/bases at `ref`. Without a ref, the
 * merge base of HEAD with the default branch (origin/HEAD, else origin's main or master, else the
 * local main or master), else the last tag: what this branch will be merged into, or what was last
 * released.
 */
export async function gitBaseline(root: string, ref?: string): Promise<Baseline | NoBaseline> {
  if (!(await git(root, ['rev-parse', '--is-inside-work-tree']))) {
    if (ref !== undefined) throw new TsoperatorError(`--against ${ref}: ${root} is not in a git repository`);
    return { missing: 'the project is not in a git repository' };
  }
  const target = ref === undefined ? await defaultRef(root) : await namedRef(root, ref);
  if ('missing' in target) return target;
  const listed = await git(root, ['ls-tree', '-r', '--name-only', target.commit, '--', CRD_BASES_DIR]);
  const files = (listed ?? '').split('\n').filter((f) => /\.ya?ml$/.test(f));
  const crds = [];
  for (const file of files) {
    const text = await git(root, ['show', `${target.commit}:./${file}`]);
    crds.push(...crdsInYaml(text ?? '', `${file} at ${target.label}`));
  }
  return { source: `git ${target.label}`, crds };
}

interface Target {
  readonly commit: string;
  readonly label: string;
}

async function namedRef(root: string, ref: string): Promise<Target> {
  const commit = await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!commit)
    throw new TsoperatorError(`--against ${ref}: no such commit, branch or tag in this repository`);
  return { commit, label: `${ref} (${commit.slice(0, 7)})` };
}

async function defaultRef(root: string): Promise<Target | NoBaseline> {
  const branch = await defaultBranch(root);
  const base = branch === undefined ? undefined : await git(root, ['merge-base', 'HEAD', branch]);
  if (branch !== undefined && base)
    return { commit: base, label: `merge base with ${branch} (${base.slice(0, 7)})` };
  // A shallow clone cut the history off above the merge base: a tag found there is not the base.
  if (branch !== undefined && (await git(root, ['rev-parse', '--is-shallow-repository'])) === 'true')
    return {
      missing:
        `this shallow clone does not reach the merge base of HEAD with ${branch}; ` +
        'fetch the history (git fetch --unshallow, or fetch-depth: 0 in CI) or pass --against <ref>',
    };
  const tag = await git(root, ['describe', '--tags', '--abbrev=0']);
  if (tag) return namedRef(root, tag);
  return {
    missing:
      'no default branch (origin/HEAD, main or master) shares history with HEAD, and there is no tag; ' +
      'pass --against <ref>, --against-file or --against-cluster',
  };
}

async function defaultBranch(root: string): Promise<string | undefined> {
  const remote = await git(root, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']);
  if (remote) return remote;
  // origin's branches first: a local main is only as recent as its last pull, and an older one
  // gives an older merge base. A CI checkout of a pull request has no local main, often no
  // origin/HEAD, but origin/main; a repository without a remote has only the local branches.
  for (const branch of ['origin/main', 'origin/master', 'main', 'master']) {
    const ref = branch.startsWith('origin/') ? `refs/remotes/${branch}` : `refs/heads/${branch}`;
    if (await git(root, ['rev-parse', '--verify', '--quiet', ref])) return branch;
  }
  return undefined;
}

/** Git's trimmed output, or undefined when it fails (no such ref, not a repository). */
async function git(cwd: string, args: readonly string[]): Promise<string | undefined> {
  const result = await execa('git', args, { cwd, reject: false, stripFinalNewline: true });
  return result.exitCode === 0 ? result.stdout : undefined;
}
