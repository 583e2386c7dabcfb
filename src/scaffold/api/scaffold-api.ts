import { applyWrites } from '../apply.ts';
import { fileWrites, type Change } from '../change.ts';
import { regenerateManifests } from '../regenerate-manifests.ts';
import type { CreateApiOptions } from './api-options.ts';
import { planApi, type ApiPlan } from './plan-api.ts';

/** What `create api` did: the scaffold's plan, then the manifests it regenerated (none in a dry run). */
export interface ScaffoldApiResult {
  readonly plan: ApiPlan;
  readonly manifests: readonly Change[];
}

/** How `scaffoldApi` runs. */
export interface ScaffoldApiRun {
  /** Plan and report, write nothing. */
  readonly dryRun: boolean;
  /**
   * Called once the scaffold is written (or, in a dry run, planned), before the manifests are
   * regenerated: the command prints the plan here, so that it is shown even when they fail.
   */
  readonly onPlanApplied?: (plan: ApiPlan) => void;
  /** Regenerate the manifests after writing (Kubebuilder's `--make`). Default: true. */
  readonly regenerateManifests?: boolean;
}

/**
 * `create api` from start to end: plans the scaffold, writes it all at once, then regenerates the
 * manifests from the types now on disk. A dry run stops after planning.
 *
 * @example
 * ```ts
 * const { plan } = await scaffoldApi({ dir: '.', kind: 'WebApp' }, { dryRun: true });
 * ```
 */
export async function scaffoldApi(
  options: CreateApiOptions,
  run: ScaffoldApiRun,
): Promise<ScaffoldApiResult> {
  const plan = await planApi(options);
  if (!run.dryRun) await applyWrites(options.dir, fileWrites(plan.changes));
  run.onPlanApplied?.(plan);
  if (run.dryRun || run.regenerateManifests === false) return { plan, manifests: [] };
  return { plan, manifests: await regenerateManifests(options.dir) };
}
