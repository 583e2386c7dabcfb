import { findDeployImage } from '../../project/deploy-image.ts';
import { pluralize } from '../../project/plural.ts';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';

/** One `tsoperator` command line, without the program name: `['create', 'api', '--kind', 'WebApp']`. */
export type CommandLine = readonly string[];

/**
 * The commands that make a project from nothing as its PROJECT records it: init with its recorded
 * settings, `create api` for each resource in the order they were added, then `create webhook`
 * for each resource with webhooks (after every API, so that a conversion's spokes exist), the
 * optional plugins PROJECT records (`edit --plugins grafana`), then `manifests`. Run with one
 * tsoperator version, they give what that version generates for the project, without the user's
 * edits. Only flags every version has are used.
 *
 * @example
 * ```ts
 * replayCommands(project)[0]; // ['init', '--domain', 'example.org', '--project-name', 'demo', ...]
 * ```
 */
export function replayCommands(project: ProjectConfig): CommandLine[] {
  return [
    initCommand(project),
    ...project.resources.map((resource) => createApiCommand(project, resource)),
    ...project.resources.flatMap((resource) =>
      resource.webhooks === undefined ? [] : [createWebhookCommand(resource)],
    ),
    ...(project.grafana === true ? [['edit', '--plugins', 'grafana']] : []),
    ['manifests'],
  ];
}

function initCommand(project: ProjectConfig): CommandLine {
  const { settings } = project;
  return [
    'init',
    '--domain',
    project.domain,
    '--project-name',
    project.projectName,
    '--license',
    settings.license,
    ...(settings.owner === undefined ? [] : ['--owner', settings.owner]),
    ...(settings.namespaced ? ['--namespaced'] : []),
    ...(project.multigroup ? ['--multigroup'] : []),
  ];
}

function createApiCommand(project: ProjectConfig, resource: ResourceConfig): CommandLine {
  const image = findDeployImage(project.deployImage ?? [], resource);
  return [
    'create',
    'api',
    ...gvkFlags(resource),
    ...(resource.plural === pluralize(resource.kind.toLowerCase()) ? [] : ['--plural', resource.plural]),
    ...(resource.api === undefined ? ['--no-resource'] : ['--resource']),
    ...(resource.api?.namespaced === false ? ['--no-namespaced'] : []),
    ...(resource.controller === true ? ['--controller'] : ['--no-controller']),
    ...(image === undefined ? [] : ['--image', image.image, '--port', String(image.containerPort)]),
  ];
}

function createWebhookCommand(resource: ResourceConfig): CommandLine {
  const webhooks = resource.webhooks ?? { webhookVersion: 'v1' };
  const spokes = webhooks.spoke ?? [];
  return [
    'create',
    'webhook',
    ...gvkFlags(resource),
    ...(webhooks.defaulting === true ? ['--defaulting'] : []),
    ...(webhooks.validation === true ? ['--programmatic-validation'] : []),
    ...(webhooks.conversion === true ? ['--conversion'] : []),
    ...(spokes.length > 0 ? ['--spoke', spokes.join(',')] : []),
  ];
}

function gvkFlags(resource: ResourceConfig): string[] {
  return ['--group', resource.group, '--version', resource.version, '--kind', resource.kind];
}
