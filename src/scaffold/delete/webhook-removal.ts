import { join } from 'node:path';
import { qualifiedGroup } from '../../project/project-config.ts';
import type { ProjectConfig, ResourceConfig, ResourceWebhooks } from '../../project/project-config.ts';
import { CRD_KUSTOMIZATION } from '../api/api-kustomize-entries.ts';
import { MAIN_FILE } from '../api/controller-registration.ts';
import { templatesDir } from '../package-paths.ts';
import { renderTemplate } from '../render-template.ts';
import {
  CRD_KUSTOMIZE_CONFIG,
  DEFAULT_KUSTOMIZATION,
  NETWORK_POLICY_KUSTOMIZATION,
  SHARED_ENTRIES,
  SHARED_FILES,
  crdConversionPatch,
} from '../webhook/stage-webhook-config.ts';
import { webhookRegistration } from '../webhook/webhook-registration.ts';
import { conversionPath, webhookPaths } from '../webhook/webhook-paths.ts';
import type { Removal } from './removal.ts';

/** What `tsoperator manifests` writes for the webhooks; deleted when none remains. */
const WEBHOOK_MANIFESTS = 'config/webhook/manifests.yaml';

/**
 * What `create webhook` made for the resource: its webhook files, their test, the conversions of
 * its spokes, its main.ts lines and its CRD conversion patch; and, once no other resource has a
 * webhook of a type, what serves that type (the CA injection, and at the last webhook the Service,
 * certificate and manager patch).
 */
export async function addWebhookRemoval(
  removal: Removal,
  main: string,
  project: ProjectConfig,
  resource: ResourceConfig,
): Promise<void> {
  const webhooks = resource.webhooks;
  if (webhooks === undefined || !hasAny(webhooks)) return;
  const paths = webhookPaths(project, resource);
  removal.files.push(paths.setup, paths.defaulter, paths.validator, paths.test);
  for (const version of webhooks.spoke ?? []) {
    removal.files.push(conversionPath(project, { ...resource, version }));
  }
  const { setupName, importLine, call } = webhookRegistration(resource, paths.setup, main);
  removal.snippets.push(
    { path: MAIN_FILE, marker: 'imports', snippet: importLine },
    { path: MAIN_FILE, marker: 'controllers', snippet: call, binding: setupName },
  );
  const remaining = project.resources.filter((r) => r !== resource).map((r) => r.webhooks);
  const remains = (type: 'defaulting' | 'validation' | 'conversion'): boolean =>
    remaining.some((w) => w?.[type] === true);
  if (webhooks.conversion === true) await addConversionRemoval(removal, resource, remains('conversion'));
  if (webhooks.defaulting === true && !remains('defaulting')) {
    await addReplacement(removal, 'inject-ca-mutating', resource);
  }
  if (webhooks.validation === true && !remains('validation')) {
    await addReplacement(removal, 'inject-ca-validating', resource);
  }
  if (!remaining.some((w) => w !== undefined && hasAny(w))) await addSharedRemoval(removal, resource);
}

function hasAny(webhooks: ResourceWebhooks): boolean {
  return webhooks.defaulting === true || webhooks.validation === true || webhooks.conversion === true;
}

async function addConversionRemoval(
  removal: Removal,
  resource: ResourceConfig,
  otherConversions: boolean,
): Promise<void> {
  const patch = crdConversionPatch(resource.plural);
  removal.files.push(patch.path);
  removal.snippets.push({ path: CRD_KUSTOMIZATION, marker: 'crd-patches', snippet: patch.entry });
  await addReplacement(removal, 'inject-ca-crd', resource);
  if (otherConversions) return;
  removal.files.push(CRD_KUSTOMIZE_CONFIG);
  removal.snippets.push({
    path: CRD_KUSTOMIZATION,
    marker: 'crd-configurations',
    snippet: SHARED_ENTRIES.crdConfigurations,
  });
}

/** The Service, certificate and manager patch that serve every webhook, with their entries. */
async function addSharedRemoval(removal: Removal, resource: ResourceConfig): Promise<void> {
  removal.files.push(...SHARED_FILES);
  removal.outputs.push(WEBHOOK_MANIFESTS);
  removal.snippets.push(
    { path: DEFAULT_KUSTOMIZATION, marker: 'default-resources', snippet: SHARED_ENTRIES.defaultResources },
    { path: DEFAULT_KUSTOMIZATION, marker: 'default-patches', snippet: SHARED_ENTRIES.defaultPatches },
    {
      path: NETWORK_POLICY_KUSTOMIZATION,
      marker: 'network-policies',
      snippet: SHARED_ENTRIES.networkPolicies,
    },
  );
  await addReplacement(removal, 'certificate-dns', resource);
}

/** A replacement block of config/default/kustomization.yaml, rendered as `create webhook` inserted it. */
async function addReplacement(removal: Removal, name: string, resource: ResourceConfig): Promise<void> {
  const template = join(templatesDir('webhook'), 'config/default/replacements', `${name}.yaml.ejs`);
  const block = await renderTemplate(template, {
    plural: resource.plural,
    qualifiedGroup: qualifiedGroup(resource),
  });
  removal.snippets.push({
    path: DEFAULT_KUSTOMIZATION,
    marker: 'default-replacements',
    snippet: block.trimEnd(),
  });
}
