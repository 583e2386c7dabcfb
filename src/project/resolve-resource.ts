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
  /** Create the types and CRD. Default: true, false for Kubernetes' own kinds. */
  readonly resource?: boolean;
  /** Create a controller. Default: true. */
  readonly controller?: boolean;
  /** Allow a second group, making the project multi-group. */
  readonly multigroup?: boolean;
  /** Regenerate an existing kind. */
  readonly force?: boolean;
}

/** The resource to scaffold, the defaults taken (to tell the user) and the project as it will be. */
export interface ResolvedResource {
  readonly resource: ResourceConfig;
  readonly defaultsTaken: readonly string[];
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
  const resource =
    coreDomain === undefined
      ? ownResource(project, { ...request, controller }, { group, version, plural })
      : kubernetesResource({ ...request, controller }, { group, version, plural, domain: coreDomain });
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
  return { resource, defaultsTaken, project: { ...project, multigroup, resources } };
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
  if (request.resource === true) {
    throw new UsageError(
      `${names.group}/${request.kind} is a Kubernetes kind: tsoperator makes a controller for it but no types; drop --resource`,
    );
  }
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
  throw new UsageError(
    `${describeGroup(group, project.domain)} would be a second group in a project that has ${describeGroup(groups[0] ?? '', project.domain)}: ` +
      're-run with --multigroup to make the project multi-group (types then go in src/api/<group>/<version>/)',
  );
}

function describeGroup(group: string, domain: string): string {
  return group === '' ? `the bare domain ${domain}` : `group ${group}`;
}
