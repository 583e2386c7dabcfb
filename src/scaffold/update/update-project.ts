import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TsoperatorError, UsageError } from '../../errors.ts';
import type { ProjectConfig } from '../../project/project-config.ts';
import { PROJECT_FILE, parseProjectFile } from '../../project/project-file.ts';
import type { Change } from '../change.ts';
import { StagingTree } from '../staging-tree.ts';
import { requireCommittedProject, requireGit } from './git-work-tree.ts';
import { planUpdate, type UpdatePlan } from './plan-update.ts';
import { replayCommands, type CommandLine } from './replay-commands.ts';
import { replayProject } from './replay-project.ts';
import { singleGroupWebhooks } from './single-group-webhooks.ts';
import { writeUpdate } from './write-update.ts';
import { currentPackage, otherPackage, type TsoperatorPackage } from './tsoperator-package.ts';
import type { UpdateOptions } from './update-options.ts';

/** What `alpha update` did, or would do in a dry run. */
export interface UpdateResult {
  readonly fromVersion: string;
  readonly toVersion: string;
  /** False when the project is at this version already: nothing was planned. */
  readonly updated: boolean;
  /** The commands replayed with each version to regenerate the project. */
  readonly commands: readonly CommandLine[];
  /** The commands the old version does not know, skipped in its replay: their files are new. */
  readonly skipped: readonly CommandLine[];
  readonly plan: UpdatePlan;
  /** The manifests generated from the merged types (none in a dry run or with conflicts). */
  readonly manifests: readonly Change[];
}

/** How `updateProject` reports its progress. */
export interface UpdateRun {
  /** Before each version regenerates the project, which takes a while. */
  readonly onReplay?: (version: string) => void;
  /** Once the plan and its manifests are written (or, in a dry run, the plan made). */
  readonly onPlanApplied?: (result: UpdateResult) => void;
}

/**
 * `alpha update` from start to end: regenerates the project from its PROJECT with the version it
 * was made with and with this one, in a temporary folder, merges the two with the project's files,
 * generates the manifests from the merged sources, and writes it all at once: manifests that
 * cannot be generated leave the project as it was. A dry run stops after planning; a merge with
 * conflicts is written, with its markers, and the manifests are left for after they are resolved.
 *
 * @example
 * ```ts
 * const result = await updateProject({ dir: '.', from: '../tsoperator-0.0.9.tgz', force: false, dryRun: true });
 * ```
 */
export async function updateProject(options: UpdateOptions, run: UpdateRun = {}): Promise<UpdateResult> {
  const tree = await StagingTree.open(options.dir);
  const project = await readProject(tree);
  const current = await currentPackage();
  const fromVersion =
    options.fromVersion ?? (options.from === undefined ? recordedVersion(project) : undefined);
  const commands = replayCommands(project, await singleGroupWebhooks(tree, project));
  const idle = (version: string): UpdateResult => ({
    fromVersion: version,
    toVersion: current.version,
    updated: false,
    commands,
    skipped: [],
    plan: { changes: [], conflicts: [] },
    manifests: [],
  });
  // With --from alone, PROJECT's version still says whether there is anything to update.
  const recorded = fromVersion ?? project.cliVersion;
  if (recorded === current.version) return idle(recorded);
  await requireGit();
  if (!options.force && !options.dryRun) await requireCommittedProject(options.dir);
  const old = await otherPackage({
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(fromVersion === undefined ? {} : { version: fromVersion }),
  });
  if (old.version === current.version) return idle(old.version);
  if (options.from !== undefined && fromVersion === undefined) {
    requireRecordedVersion(project, old, options.from);
  }
  const { plan, skipped } = await mergedPlan(tree, project, commands, old, current, run);
  const manifests = options.dryRun ? [] : await writeUpdate(options.dir, project, plan);
  const result = {
    fromVersion: old.version,
    toVersion: current.version,
    updated: true,
    commands,
    skipped,
    plan,
    manifests,
  };
  run.onPlanApplied?.(result);
  return result;
}

async function readProject(tree: StagingTree): Promise<ProjectConfig> {
  const text = await tree.read(PROJECT_FILE);
  if (text === undefined) {
    throw new TsoperatorError('no PROJECT file here: run `tsoperator alpha update` in the project folder');
  }
  const project = parseProjectFile(text);
  // A version written by hand as a tag (v0.0.9) is the npm version, as --from-version takes it.
  return { ...project, cliVersion: project.cliVersion.replace(/^v/, '') };
}

function recordedVersion(project: ProjectConfig): string {
  if (project.cliVersion === '') {
    throw new UsageError(
      'PROJECT does not say which tsoperator version generated the project (no cliVersion): give it with --from-version',
    );
  }
  return project.cliVersion;
}

/**
 * Refuses a `--from` package of another version than the one PROJECT records: merged against what
 * that version generates, the changes between the two would be taken for the user's, and kept.
 */
function requireRecordedVersion(project: ProjectConfig, old: TsoperatorPackage, from: string): void {
  if (project.cliVersion === '' || project.cliVersion === old.version) return;
  throw new UsageError(
    `--from ${from} is tsoperator ${old.version}, but PROJECT records that ${project.cliVersion} generated the ` +
      `project: give the package of ${project.cliVersion}, or --from-version ${old.version} to start from it all the same`,
  );
}

/** Both versions' regenerations, in a temporary folder removed after, merged with the project. */
async function mergedPlan(
  tree: StagingTree,
  project: ProjectConfig,
  commands: readonly CommandLine[],
  old: TsoperatorPackage,
  current: TsoperatorPackage,
  run: UpdateRun,
): Promise<{ plan: UpdatePlan; skipped: CommandLine[] }> {
  const work = await mkdtemp(join(tmpdir(), 'tsoperator-update-'));
  try {
    const baseDir = join(work, 'base', project.projectName);
    const theirsDir = join(work, 'theirs', project.projectName);
    run.onReplay?.(old.version);
    const skipped = await replayProject(old, commands, baseDir, { skipUnknown: true });
    run.onReplay?.(current.version);
    await replayProject(current, commands, theirsDir, { skipUnknown: false });
    const plan = await planUpdate(tree, project, {
      baseDir,
      fromVersion: old.version,
      theirsDir,
      toVersion: current.version,
      scratchDir: work,
    });
    return { plan, skipped };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
