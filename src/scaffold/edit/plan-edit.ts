import { TsoperatorError } from '../../errors.ts';
import type { OptionalPlugin } from '../../grafana/grafana-plugin.ts';
import { stageGrafana } from '../../grafana/stage-grafana.ts';
import type { ProjectConfig } from '../../project/project-config.ts';
import { PROJECT_FILE, parseProjectFile, renderProjectFile } from '../../project/project-file.ts';
import type { Change } from '../change.ts';
import { finishPlan } from '../finish-plan.ts';
import { StagingTree } from '../staging-tree.ts';

export interface EditOptions {
  /** The project's root folder. */
  readonly dir: string;
  readonly plugins: readonly OptionalPlugin[];
  /**
   * The longest description a CRD schema keeps from now on, in bytes (PROJECT's crd.maxDescLen);
   * a negative value removes the limit. Default: the setting stays as it is.
   */
  readonly maxDescLen?: number | undefined;
}

/**
 * The changes `tsoperator edit` makes to an initialised project: each plugin's files, and the plugin
 * recorded in PROJECT, as `kubebuilder edit --plugins` records it; the description limit, in PROJECT. Run again, it
 * brings the plugin's files up to date (grafana: the custom-metrics dashboard from its config).
 *
 * @example
 * ```ts
 * const changes = await planEdit({ dir: '.', plugins: ['grafana'] });
 * ```
 */
export async function planEdit(options: EditOptions): Promise<Change[]> {
  const tree = await StagingTree.open(options.dir);
  const text = await tree.read(PROJECT_FILE);
  if (text === undefined) {
    throw new TsoperatorError(
      'no PROJECT file here: run edit in the root of a tsoperator project (or init one)',
    );
  }
  let project = parseProjectFile(text);
  for (const plugin of options.plugins) {
    if (plugin === 'grafana') {
      await stageGrafana(tree);
      project = { ...project, grafana: true };
    }
  }
  if (options.maxDescLen !== undefined) project = withMaxDescLen(project, options.maxDescLen);
  await tree.update(PROJECT_FILE, renderProjectFile(project));
  return finishPlan(tree);
}

/** `project` with CRD descriptions limited to `bytes` (no limit when negative). */
function withMaxDescLen(project: ProjectConfig, bytes: number): ProjectConfig {
  const crd = { ...project.settings.crd, maxDescLen: bytes < 0 ? undefined : bytes };
  return { ...project, settings: { ...project.settings, crd } };
}
