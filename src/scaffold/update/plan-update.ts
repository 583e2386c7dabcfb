import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ProjectConfig } from '../../project/project-config.ts';
import { PROJECT_FILE, renderProjectFile } from '../../project/project-file.ts';
import type { Change } from '../change.ts';
import {
  GENERATED_STATE_FILE,
  contentHash,
  parseGeneratedState,
  renderGeneratedState,
} from '../generated-state.ts';
import { PROJECT_RUNTIME_DIR } from '../runtime-files.ts';
import type { StagingTree } from '../staging-tree.ts';
import { folderFiles } from './folder-files.ts';
import { fromLf, lineEnding, toLf } from './line-endings.ts';
import { mergeFile } from './merge-file.ts';

/** The two generated trees an update merges the project with, and the versions that made them. */
export interface UpdateSides {
  /** What the project's tsoperator version generates for its PROJECT. */
  readonly baseDir: string;
  readonly fromVersion: string;
  /** What this tsoperator version generates for it. */
  readonly theirsDir: string;
  readonly toVersion: string;
  /** A folder for the merge's scratch files. */
  readonly scratchDir: string;
}

/** An update's changes to the project, and the files left with conflict markers. */
export interface UpdatePlan {
  readonly changes: Change[];
  readonly conflicts: string[];
}

/**
 * The manifests generator's files: not merged, for they are generated from the merged types and
 * written with the update (or, while conflicts remain, by `tsoperator manifests` after).
 */
export function isManifestOutput(path: string): boolean {
  return (
    path.startsWith('config/crd/bases/') ||
    path === 'config/rbac/role.yaml' ||
    path === 'config/webhook/manifests.yaml'
  );
}

/**
 * The update of a project to what `sides.toVersion` generates: each file tsoperator generated is
 * merged three ways (base: the old version's, ours: the project's, theirs: the new version's), a
 * file new upstream is added, one no longer generated is deleted when the user left it as it was
 * generated. `src/runtime/` is the new version's outright, and PROJECT records the new version.
 */
export async function planUpdate(
  tree: StagingTree,
  project: ProjectConfig,
  sides: UpdateSides,
): Promise<UpdatePlan> {
  const base = new Set(await folderFiles(sides.baseDir));
  const theirs = new Set(await folderFiles(sides.theirsDir));
  const merger = new FileMerger(tree, sides);
  const changes: Change[] = [];
  for (const path of [...new Set([...base, ...theirs])].sort()) {
    if (isManifestOutput(path) || isReplacedOutright(path)) continue;
    const change = await merger.merge(path, base.has(path), theirs.has(path));
    if (change !== undefined) changes.push(change);
  }
  changes.push(...(await runtimeChanges(tree, sides.theirsDir, theirs)));
  const projectFile = renderProjectFile({ ...project, cliVersion: sides.toVersion });
  changes.push(...(await written(tree, PROJECT_FILE, projectFile)));
  const state = await mergedState(tree, sides.theirsDir, [...base, ...theirs], projectFile);
  changes.push(...(await written(tree, GENERATED_STATE_FILE, state)));
  return { changes, conflicts: merger.conflicts };
}

/** Paths the update writes as the new version has them, whatever the project holds. */
function isReplacedOutright(path: string): boolean {
  return path === PROJECT_FILE || path === GENERATED_STATE_FILE || path.startsWith(`${PROJECT_RUNTIME_DIR}/`);
}

/** Merges one generated file at a time, keeping the list of those left with conflicts. */
class FileMerger {
  readonly conflicts: string[] = [];
  readonly #tree: StagingTree;
  readonly #sides: UpdateSides;
  #emptyFile: string | undefined;

  constructor(tree: StagingTree, sides: UpdateSides) {
    this.#tree = tree;
    this.#sides = sides;
  }

  /**
   * The change to `path`, or undefined when the project keeps it as it is. A file of the project
   * with CRLF line endings (a Windows checkout) is merged as LF, as both versions generate it, and
   * written back with CRLF: else every line would differ, and each change be a conflict.
   */
  async merge(path: string, inBase: boolean, inTheirs: boolean): Promise<Change | undefined> {
    const found = await this.#tree.read(path);
    const eol = found === undefined ? '\n' : lineEnding(found);
    const change = await this.#mergeLf(
      path,
      found === undefined ? undefined : toLf(found, eol),
      inBase,
      inTheirs,
    );
    if (change?.content === undefined) return change;
    return { ...change, content: fromLf(change.content, eol) };
  }

  async #mergeLf(
    path: string,
    ours: string | undefined,
    inBase: boolean,
    inTheirs: boolean,
  ): Promise<Change | undefined> {
    const baseText = inBase ? await readFile(join(this.#sides.baseDir, path), 'utf8') : undefined;
    if (!inTheirs) return this.#removed(path, ours, baseText);
    const theirsText = await readFile(join(this.#sides.theirsDir, path), 'utf8');
    if (ours === undefined) {
      if (baseText === undefined) return { action: 'create', path, content: theirsText };
      if (baseText === theirsText) return undefined;
      return {
        action: 'kept',
        path,
        note: `you deleted it, and tsoperator ${this.#sides.toVersion} changed it: left deleted`,
      };
    }
    if (ours === theirsText || baseText === theirsText) return undefined;
    if (ours === baseText) return { action: 'overwrite', path, content: theirsText };
    return this.#threeWay(path, ours, inBase);
  }

  #removed(path: string, ours: string | undefined, baseText: string | undefined): Change | undefined {
    if (ours === undefined) return undefined;
    if (ours === baseText) {
      return { action: 'delete', path, note: `tsoperator ${this.#sides.toVersion} no longer generates it` };
    }
    return {
      action: 'kept',
      path,
      note: `tsoperator ${this.#sides.toVersion} no longer generates it; kept because you changed it`,
    };
  }

  async #threeWay(path: string, ours: string, inBase: boolean): Promise<Change | undefined> {
    const { fromVersion, toVersion } = this.#sides;
    const result = await mergeFile({
      ours: { path: await this.#scratch(`ours/${path}`, ours), label: 'ours (your project)' },
      base: {
        path: inBase ? join(this.#sides.baseDir, path) : await this.#empty(),
        label: `base (tsoperator ${fromVersion})`,
      },
      theirs: { path: join(this.#sides.theirsDir, path), label: `theirs (tsoperator ${toVersion})` },
    });
    if (result.conflicts === 0) {
      if (result.text === ours) return undefined;
      return {
        action: 'overwrite',
        path,
        content: result.text,
        note: `merged: your changes and tsoperator ${toVersion}'s`,
      };
    }
    this.conflicts.push(path);
    const count = result.conflicts === 1 ? '1 conflict' : `${result.conflicts.toString()} conflicts`;
    return {
      action: 'overwrite',
      path,
      content: result.text,
      note: `CONFLICT: ${count} marked with <<<<<<< ======= >>>>>>>, to resolve by hand`,
    };
  }

  /** A file that a merge of a file new on both sides takes as their common ancestor. */
  async #empty(): Promise<string> {
    if (this.#emptyFile === undefined) this.#emptyFile = await this.#scratch('empty', '');
    return this.#emptyFile;
  }

  /** `text` in the scratch file `name`, for git merge-file to read. */
  async #scratch(name: string, text: string): Promise<string> {
    const path = join(this.#sides.scratchDir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    return path;
  }
}

/** The new version's runtime, file for file; a file only the project's runtime has is deleted. */
async function runtimeChanges(
  tree: StagingTree,
  theirsDir: string,
  theirs: ReadonlySet<string>,
): Promise<Change[]> {
  const prefix = `${PROJECT_RUNTIME_DIR}/`;
  const changes: Change[] = [];
  for (const path of [...theirs].filter((p) => p.startsWith(prefix))) {
    changes.push(...(await written(tree, path, await readFile(join(theirsDir, path), 'utf8'))));
  }
  for (const file of await folderFiles(join(tree.root, PROJECT_RUNTIME_DIR))) {
    const path = `${prefix}${file}`;
    if (!theirs.has(path)) changes.push({ action: 'delete', path, note: 'not in the new runtime' });
  }
  return changes;
}

/**
 * What tsoperator generated, by its records, after the update: the new version's hashes for every
 * file it generates (so that a later `--force` tells the user's merged edits from its own
 * output), the project's own records for the rest, and the manifests as they stand until they are
 * regenerated.
 */
async function mergedState(
  tree: StagingTree,
  theirsDir: string,
  generated: readonly string[],
  projectFile: string,
): Promise<string> {
  const state = parseGeneratedState(await tree.read(GENERATED_STATE_FILE));
  const theirs = parseGeneratedState(await readFile(join(theirsDir, GENERATED_STATE_FILE), 'utf8'));
  for (const path of generated) if (!isManifestOutput(path)) state.delete(path);
  for (const path of tree.generatedPaths(`${PROJECT_RUNTIME_DIR}/`)) state.delete(path);
  for (const [path, hash] of theirs) if (!isManifestOutput(path)) state.set(path, hash);
  state.set(PROJECT_FILE, contentHash(projectFile));
  return renderGeneratedState(state);
}

/** Writing `content` to `path`: a create, an overwrite, or nothing when it holds that already. */
async function written(tree: StagingTree, path: string, content: string): Promise<Change[]> {
  const current = await tree.read(path);
  if (current === content) return [];
  return [{ action: current === undefined ? 'create' : 'overwrite', path, content }];
}
