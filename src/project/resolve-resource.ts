import { UsageError } from '../errors.ts';
import { kubernetesGroupDomain } from './kubernetes-groups.ts';
import {
  validateGroup,
  validateKind,
  validatePlural,
  validateQualifiedGroup,
  validateVersion,
} from './name-rules.ts';
import { pluralize } from './plural.ts';
import { typesPath } from './types-path.ts';
import { findResource, groupsOf, qualifiedGroup } from './project-config.ts';
import type { ProjectConfig, ResourceConfig } from './project-config.ts';

/** What `create api` was asked for; undefined means "not given". */
export interface ResourceRequest {
  readonly kind: string;
  readonly group?: string;
  readonly version?: string;
  readonly plural?: string;
  /** Default: true. */
  readonly namespaced?: boolean;
  /**
   * Create the types and CRD. Default: true, also in a group named like one of Kubernetes' own
   * (`batch`, `apps`): as in Kubebuilder, only `false` there means Kubernetes' own kind.
   */
  readonly resource?: boolean;
  /** Create a controller. Default: true. */
  readonly controller?: boolean;
  /** Allow a second group, making the project multi-group. */
  readonly multigroup?: boolean;
  /** Regenerate an existing kind. */
  readonly force?: boolean;
}

/**
 * The resource to scaffold, the defaults taken and how a name that reads two ways was read (both to
 * tell the user), and the project as it will be.
 */
export interface ResolvedResource {
  readonly resource: ResourceConfig;
  readonly defaultsTaken: readonly string[];
  readonly readings: readonly string[];
  readonly project: ProjectConfig;
}

/** The version a resource gets when `--version` is not given, as in Kubebuilder's tutorials. */
export const DEFAULT_VERSION = 'v1';

/**
 * Completes a `create api` request against the project: defaults (version v1; the project's group,
 * or the bare domain when it has none), name rules, the multi-group rule and the existing-kind rule.
 *
 * @example
 * ```ts
 * const { resource, defaultsTaken } = resolveResource(project, { kind: 'WebApp' });
 * ```
 */
export function resolveResource(project: ProjectConfig, request: ResourceRequest): ResolvedResource {
  validateKind(request.kind);
  const defaultsTaken: string[] = [];
  const version = request.version ?? DEFAULT_VERSION;
  if (request.version === undefined) defaultsTaken.push(`version ${DEFAULT_VERSION} (no --version given)`);
  const group = request.group ?? defaultGroup(project, defaultsTaken);
  validateGroup(group);
  validateVersion(version);
  const plural = request.plural ?? pluralize(request.kind.toLowerCase());
  validatePlural(plural);
  const controller =
    request.controller ?? defaultController(project, { group, version, kind: request.kind }, defaultsTaken);
  const coreDomain = kubernetesGroupDomain(group);
  const names = { group, version, plural };
  // Kubebuilder's rule: a group named like Kubernetes' own is the user's own group (batch.<domain>)
  // unless the types are turned off; only then is the kind Kubernetes' own.
  const resource =
    coreDomain !== undefined && request.resource === false
      ? kubernetesResource({ ...request, controller }, { ...names, domain: coreDomain })
      : ownResource(project, { ...request, controller }, names);
  const readings = coreDomain === undefined ? [] : [readingOf(resource, project.domain)];
  checkOtherReading(project, resource);
  const existing = findResource(project, resource);
  if (existing !== undefined && request.force !== true) {
    throw new UsageError(
      `kind ${resource.kind} already exists in ${describeGroup(resource.group, resource.domain)} ${version}; re-run with --force to regenerate its files (files you changed are kept)`,
    );
  }
  const multigroup = project.multigroup || request.multigroup === true;
  if (resource.external !== true) checkSingleGroup(project, group, multigroup);
  const resources = existing
    ? project.resources.map((r) => (r === existing ? resource : r))
    : [...project.resources, resource];
  return { resource, defaultsTaken, readings, project: { ...project, multigroup, resources } };
}

/**
 * Refuses Kubernetes' kind beside the user's own kind of the same group and kind name (in any
 * version), or the other way round, even with --force: both would be written to the same
 * controller files, which are named by the kind.
 */
function checkOtherReading(project: ProjectConfig, resource: ResourceConfig): void {
  const { group, version, kind } = resource;
  const other = project.resources.find(
    (r) => r.group === group && r.kind === kind && (r.external === true) !== (resource.external === true),
  );
  if (other === undefined) return;
  if (other.external === true) {
    // What an earlier tsoperator made of `--group apps --kind Deployment` alone: re-running that
    // command means the same controller, which now takes --no-resource.
    throw new UsageError(
      `${group}/${other.version} ${kind} is already a controller of Kubernetes' kind in this project: to regenerate it, re-run with --no-resource; ` +
        'a kind of your own of that name would take the same files: give it another group or kind name',
    );
  }
  throw new UsageError(
    `${group}/${other.version} ${kind} is already your own kind in this project, and a controller of Kubernetes' ${group}/${version} ${kind} would take the same files: ` +
      'give the new one another group or kind name',
  );
}

/** What a group named like one of Kubernetes' own was taken for, and how to ask for the other. */
function readingOf(resource: ResourceConfig, projectDomain: string): string {
  const gvk = `${resource.group}/${resource.version} ${resource.kind}`;
  if (resource.external === true) {
    return `${gvk} is Kubernetes' own kind (--no-resource on a Kubernetes group): a controller for it, no types`;
  }
  return (
    `${resource.group} is also the name of a Kubernetes group: ${resource.kind} is your own kind in ` +
    `${qualifiedGroup({ group: resource.group, domain: projectDomain })}; for a controller of Kubernetes' ${gvk}, ` +
    'use --no-resource instead'
  );
}

/** The project's only group (or none), noted in `defaultsTaken`; several groups need --group. */
export function defaultGroup(project: ProjectConfig, defaultsTaken: string[]): string {
  const groups = groupsOf(project);
  if (groups.length > 1) {
    throw new UsageError(`the project has several groups (${groups.join(', ')}): say which one with --group`);
  }
  const group = groups[0] ?? '';
  defaultsTaken.push(
    group === ''
      ? `no group: the kind is in the bare domain ${project.domain} (no --group given)`
      : `group ${group}, the project's group (no --group given)`,
  );
  return group;
}

/** A controller, unless another version of the kind has one: a kind has one controller. */
function defaultController(
  project: ProjectConfig,
  gvk: Pick<ResourceConfig, 'group' | 'version' | 'kind'>,
  defaultsTaken: string[],
): boolean {
  const other = project.resources.find(
    (r) => r.group === gvk.group && r.kind === gvk.kind && r.version !== gvk.version && r.controller === true,
  );
  if (other === undefined) return true;
  defaultsTaken.push(
    `no controller: ${gvk.kind} ${other.version} has one, which serves every version (pass --controller to write one)`,
  );
  return false;
}

function ownResource(
  project: ProjectConfig,
  request: ResourceRequest,
  names: { group: string; version: string; plural: string },
): ResourceConfig {
  validateQualifiedGroup(qualifiedGroup({ group: names.group, domain: project.domain }));
  const wantsTypes = request.resource ?? true;
  return {
    ...names,
    kind: request.kind,
    domain: project.domain,
    ...(wantsTypes ? { api: { crdVersion: 'v1', namespaced: request.namespaced ?? true } } : {}),
    ...((request.controller ?? true) ? { controller: true } : {}),
    path: typesPath({ ...names, kind: request.kind }, project.multigroup || request.multigroup === true),
  };
}

function kubernetesResource(
  request: ResourceRequest,
  names: { group: string; version: string; plural: string; domain: string },
): ResourceConfig {
  return {
    ...names,
    kind: request.kind,
    external: true,
    ...((request.controller ?? true) ? { controller: true } : {}),
    path: '@kubernetes/client-node',
  };
}

function checkSingleGroup(project: ProjectConfig, group: string, multigroup: boolean): void {
  const groups = groupsOf(project);
  if (multigroup || groups.length === 0 || groups.includes(group)) return;
  // Before Kubebuilder's rule was followed, `--group apps --kind Deployment` alone meant Kubernetes' kind.
  const kubernetesHint =
    kubernetesGroupDomain(group) === undefined
      ? ''
      : `; for a controller of Kubernetes' own ${group} kind, re-run with --no-resource`;
  throw new UsageError(
    `${describeGroup(group, project.domain)} would be a second group in a project that has ${describeGroup(groups[0] ?? '', project.domain)}: ` +
      `re-run with --multigroup to make the project multi-group (types then go in src/api/<group>/<version>/)${kubernetesHint}`,
  );
}

function describeGroup(group: string, domain: string): string {
  return group === '' ? `the bare domain ${domain}` : `group ${group}`;
}
