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
  run: { dryRun: boolean },
): Promise<ScaffoldApiResult> {
  const plan = await planApi(options);
  if (run.dryRun) return { plan, manifests: [] };
  await applyWrites(options.dir, fileWrites(plan.changes));
  return { plan, manifests: await regenerateManifests(options.dir) };
}
