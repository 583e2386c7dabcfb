import { findDeployImage, type DeployImageOptions } from '../../project/deploy-image.ts';
import { pluralize } from '../../project/plural.ts';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import { typesPath } from '../../project/types-path.ts';

/** One `tsoperator` command line, without the program name: `['create', 'api', '--kind', 'WebApp']`. */
export type CommandLine = readonly string[];

/**
 * The commands that make a project from nothing as its PROJECT records it: init with its recorded
 * settings, `create api` for each resource in the order they were added, then `create webhook`
 * for each resource with webhooks (after every API, so that a conversion's spokes exist), the
 * optional plugins PROJECT records (`edit --plugins grafana`), then `manifests`. The webhooks of
 * `singleGroupWebhooks` were made before the project turned multi-group, at the single-group path:
 * each is replayed once its kind and its spokes exist, before the turn. Run with one tsoperator
 * version, they give what that version generates for the project, without the user's edits. Only
 * flags every version has are used.
 *
 * @example
 * ```ts
 * replayCommands(project)[0]; // ['init', '--domain', 'example.org', '--project-name', 'demo', ...]
 * ```
 */
export function replayCommands(
  project: ProjectConfig,
  singleGroupWebhooks: readonly ResourceConfig[] = [],
): CommandLine[] {
  const turnedMultigroup = multigroupTurn(project);
  const early = turnedMultigroup === undefined ? [] : singleGroupWebhooks;
  const earlyAfter = new Map<ResourceConfig, ResourceConfig[]>();
  for (const resource of early) {
    const last = lastNeeded(project, resource);
    earlyAfter.set(last, [...(earlyAfter.get(last) ?? []), resource]);
  }
  return [
    initCommand(project, project.multigroup && turnedMultigroup === undefined),
    ...project.resources.flatMap((resource) => [
      createApiCommand(project, resource, resource === turnedMultigroup),
      ...(earlyAfter.get(resource) ?? []).map(createWebhookCommand),
    ]),
    ...project.resources.flatMap((resource) =>
      resource.webhooks === undefined || early.includes(resource) ? [] : [createWebhookCommand(resource)],
    ),
    ...(project.grafana === true ? [['edit', '--plugins', 'grafana']] : []),
    ['manifests'],
  ];
}

/** The last of a webhook's kind and its conversion's spokes in PROJECT: all exist after it. */
function lastNeeded(project: ProjectConfig, resource: ResourceConfig): ResourceConfig {
  const spokes = resource.webhooks?.spoke ?? [];
  const needed = project.resources.filter(
    (r) =>
      r === resource ||
      (r.group === resource.group && r.kind === resource.kind && spokes.includes(r.version)),
  );
  return needed.at(-1) ?? resource;
}

/**
 * The resource whose `create api --multigroup` made a single-group project multi-group, told by
 * the recorded type paths: the kinds added before it keep their single-group paths, and replaying
 * them with `init --multigroup` would put their files where the project has none. It is the first
 * kind with a multi-group path, or in a second group. Undefined when the project is single-group
 * or was multi-group from `init`.
 */
function multigroupTurn(project: ProjectConfig): ResourceConfig | undefined {
  const own = project.resources.filter((r) => r.external !== true);
  const startedSingle = own.some((r) => r.group !== '' && r.path === typesPath(r, false));
  if (!project.multigroup || !startedSingle) return undefined;
  const groups = new Set<string>();
  for (const resource of own) {
    const multigroupPath = resource.group !== '' && resource.path === typesPath(resource, true);
    if (multigroupPath || (groups.size > 0 && !groups.has(resource.group))) return resource;
    groups.add(resource.group);
  }
  return undefined;
}

function initCommand(project: ProjectConfig, multigroup: boolean): CommandLine {
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
    ...(settings.sharded ? ['--sharded'] : []),
    ...(multigroup ? ['--multigroup'] : []),
  ];
}

function createApiCommand(
  project: ProjectConfig,
  resource: ResourceConfig,
  multigroup: boolean,
): CommandLine {
  const image = findDeployImage(project.deployImage ?? [], resource);
  return [
    'create',
    'api',
    ...gvkFlags(resource),
    ...(resource.plural === pluralize(resource.kind.toLowerCase()) ? [] : ['--plural', resource.plural]),
    ...(resource.api === undefined ? ['--no-resource'] : ['--resource']),
    ...(resource.api?.namespaced === false ? ['--no-namespaced'] : []),
    ...(resource.controller === true ? ['--controller'] : ['--no-controller']),
    ...(image === undefined ? [] : deployImageFlags(image)),
    ...(multigroup ? ['--multigroup'] : []),
  ];
}

/** The flags that made a kind's controller run an image, as `create api` takes them. */
function deployImageFlags(image: DeployImageOptions): CommandLine {
  return [
    '--image',
    image.image,
    '--port',
    String(image.containerPort),
    ...(image.containerCommand ? ['--image-container-command', image.containerCommand.join(',')] : []),
    ...(image.runAsUser === undefined ? [] : ['--run-as-user', String(image.runAsUser)]),
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
