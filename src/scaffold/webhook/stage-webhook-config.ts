import { CRD_KUSTOMIZATION } from '../api/api-kustomize-entries.ts';
import type { StagingTree } from '../staging-tree.ts';
import type { RenderWebhook } from './plan-webhook.ts';
import type { WebhookTemplateData } from './webhook-options.ts';

/** Files every project with webhooks has once: written when missing, then the user's. */
export const SHARED_FILES = [
  'config/webhook/kustomization.yaml',
  'config/webhook/kustomizeconfig.yaml',
  'config/webhook/service.yaml',
  'config/certmanager/kustomization.yaml',
  'config/certmanager/kustomizeconfig.yaml',
  'config/certmanager/issuer.yaml',
  'config/certmanager/certificate-webhook.yaml',
  'config/default/manager_webhook_patch.yaml',
  'config/network-policy/allow-webhook-traffic.yaml',
] as const;

export const DEFAULT_KUSTOMIZATION = 'config/default/kustomization.yaml';
export const NETWORK_POLICY_KUSTOMIZATION = 'config/network-policy/kustomization.yaml';
/** What serves the conversion webhooks of a project's CRDs. */
export const CRD_KUSTOMIZE_CONFIG = 'config/crd/kustomizeconfig.yaml';

/** The kustomization lines every project with webhooks has once, by marker. */
export const SHARED_ENTRIES = {
  defaultResources: '- ../webhook\n- ../certmanager',
  defaultPatches: '- path: manager_webhook_patch.yaml\n  target:\n    kind: Deployment',
  networkPolicies: '- allow-webhook-traffic.yaml',
  crdConfigurations: '- kustomizeconfig.yaml',
} as const;

/** The CRD patch that sends a kind's conversions to the webhook, and its kustomization entry. */
export function crdConversionPatch(plural: string): { path: string; entry: string } {
  const path = `config/crd/patches/webhook_in_${plural}.yaml`;
  return { path, entry: `- path: ${path.slice('config/crd/'.length)}` };
}

/**
 * What serves the webhooks in a cluster, as Kubebuilder lays it out: the webhook Service, a
 * cert-manager Issuer and Certificate, the manager's webhook port and certificate volume, the
 * NetworkPolicy that admits the API server to that port once config/network-policy is enabled,
 * the replacements that inject the CA, and for a conversion the CRD patch that calls the webhook.
 */
export async function stageWebhookConfig(
  tree: StagingTree,
  data: WebhookTemplateData,
  render: RenderWebhook,
): Promise<void> {
  for (const file of SHARED_FILES) await tree.generateIfMissing(file, await render(file, file));
  await tree.insert(DEFAULT_KUSTOMIZATION, 'default-resources', SHARED_ENTRIES.defaultResources);
  await tree.insert(DEFAULT_KUSTOMIZATION, 'default-patches', SHARED_ENTRIES.defaultPatches);
  await tree.insert(NETWORK_POLICY_KUSTOMIZATION, 'network-policies', SHARED_ENTRIES.networkPolicies);
  await insertReplacement(tree, render, 'certificate-dns');
  if (data.defaulting) await insertReplacement(tree, render, 'inject-ca-mutating');
  if (data.validation) await insertReplacement(tree, render, 'inject-ca-validating');
  if (data.conversion) await stageCrdConversion(tree, data, render);
}

async function stageCrdConversion(
  tree: StagingTree,
  data: WebhookTemplateData,
  render: RenderWebhook,
): Promise<void> {
  const patch = crdConversionPatch(data.plural);
  await tree.generate(patch.path, await render('config/crd/patches/webhook_in.yaml', patch.path));
  await tree.generateIfMissing(
    CRD_KUSTOMIZE_CONFIG,
    await render('config/crd/kustomizeconfig.yaml', CRD_KUSTOMIZE_CONFIG),
  );
  await tree.insert(CRD_KUSTOMIZATION, 'crd-patches', patch.entry);
  await tree.insert(CRD_KUSTOMIZATION, 'crd-configurations', SHARED_ENTRIES.crdConfigurations);
  await insertReplacement(tree, render, 'inject-ca-crd');
}

/** One replacement block of `config/default/kustomization.yaml`, from `config/default/replacements/`. */
async function insertReplacement(tree: StagingTree, render: RenderWebhook, name: string): Promise<void> {
  const block = await render(`config/default/replacements/${name}.yaml`, DEFAULT_KUSTOMIZATION);
  await tree.insert(DEFAULT_KUSTOMIZATION, 'default-replacements', block.trimEnd());
}
