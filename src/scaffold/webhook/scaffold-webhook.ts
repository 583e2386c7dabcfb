import { applyWrites } from '../apply.ts';
import { fileWrites, type Change } from '../change.ts';
import { regenerateManifests } from '../regenerate-manifests.ts';
import { planWebhook, type WebhookPlan } from './plan-webhook.ts';
import type { CreateWebhookOptions } from './webhook-options.ts';

/** What `create webhook` did: the scaffold's plan, then the manifests it regenerated (none in a dry run). */
export interface ScaffoldWebhookResult {
  readonly plan: WebhookPlan;
  readonly manifests: readonly Change[];
}

/**
 * `create webhook` from start to end: plans the scaffold, writes it all at once, then regenerates
 * the manifests, so that config/webhook/manifests.yaml has the new webhooks before their test runs.
 *
 * @example
 * ```ts
 * const { plan } = await scaffoldWebhook(
 *   { dir: '.', kind: 'WebApp', defaulting: true, validation: false, conversion: false, spokes: [], force: false },
 *   { dryRun: true },
 * );
 * ```
 */
export async function scaffoldWebhook(
  options: CreateWebhookOptions,
  run: { readonly dryRun: boolean; readonly onPlanApplied?: (plan: WebhookPlan) => void },
): Promise<ScaffoldWebhookResult> {
  const plan = await planWebhook(options);
  if (!run.dryRun) await applyWrites(options.dir, fileWrites(plan.changes));
  run.onPlanApplied?.(plan);
  if (run.dryRun) return { plan, manifests: [] };
  return { plan, manifests: await regenerateManifests(options.dir) };
}
