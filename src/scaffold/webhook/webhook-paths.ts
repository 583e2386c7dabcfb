import { groupFolder } from '../../project/types-path.ts';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import { apiPaths } from '../api/api-paths.ts';
import type { WebhookPaths } from './webhook-options.ts';

/**
 * Where a kind's webhooks go: `src/webhooks/<version>/` as Kubebuilder's `internal/webhook/<version>/`,
 * with one file per webhook type so that adding a type later never rewrites code the user owns.
 */
export function webhookPaths(project: ProjectConfig, resource: ResourceConfig): WebhookPaths {
  const base = webhookFolder(project, resource);
  const kindLower = resource.kind.toLowerCase();
  const api = apiPaths(project, resource);
  return {
    types: api.types,
    sample: api.sample,
    setup: `src/${base}${kindLower}.webhook.ts`,
    defaulter: `src/${base}${kindLower}.defaulter.ts`,
    validator: `src/${base}${kindLower}.validator.ts`,
    test: `test/${base}${kindLower}.webhook.test.ts`,
  };
}

/** The conversion of a spoke version lives beside the spoke's other webhooks. */
export function conversionPath(project: ProjectConfig, spoke: ResourceConfig): string {
  return `src/${webhookFolder(project, spoke)}${spoke.kind.toLowerCase()}.conversion.ts`;
}

function webhookFolder(project: ProjectConfig, resource: ResourceConfig): string {
  return `webhooks/${groupFolder(resource.group, project.multigroup)}${resource.version}/`;
}
