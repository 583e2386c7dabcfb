import type { DeployImageResource } from './deploy-image.ts';

/**
 * The PROJECT file's model: the single record of what a project is and what was scaffolded into it,
 * in Kubebuilder's version "3" layout so that tools reading Kubebuilder projects can read ours.
 */

/** The layout key tsoperator writes into `layout` and under `plugins`. */
export const TSOPERATOR_LAYOUT = 'typescript.tsoperator.io/v1';

/** Kubebuilder's key of its grafana plugin under `plugins`, which tsoperator's `--plugins grafana` records. */
export const GRAFANA_PLUGIN = 'grafana.kubebuilder.io/v1-alpha';

/** Webhooks scaffolded for a resource. */
export interface ResourceWebhooks {
  readonly defaulting?: boolean;
  readonly validation?: boolean;
  readonly conversion?: boolean;
  /** The versions a conversion webhook converts from and to this (hub) version. */
  readonly spoke?: readonly string[];
  readonly webhookVersion: string;
}

/** One group/version/kind the project serves (api) or watches (controller only). */
export interface ResourceConfig {
  /** Empty for a resource in the bare domain. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The resource name; the file omits it when it is the kind's default plural. */
  readonly plural: string;
  /** Empty for Kubernetes' own kinds (apps, core). */
  readonly domain: string;
  /** Present when the project defines the type (a CRD). */
  readonly api?: { readonly crdVersion: string; readonly namespaced: boolean };
  readonly controller?: boolean;
  /** True for a kind the project does not define (a core kind). */
  readonly external?: boolean;
  /** Where the type comes from: the project's own file, or the client-node type for a core kind. */
  readonly path?: string;
  readonly webhooks?: ResourceWebhooks;
}

/** tsoperator's own settings, kept under `plugins` as Kubebuilder keeps plugin settings. */
export interface TsoperatorSettings {
  /** The operator watches one namespace: namespaced Roles instead of ClusterRoles. */
  readonly namespaced: boolean;
  readonly owner?: string;
  readonly license: 'apache2' | 'none';
  /** Every replica reconciles a shard of the objects (`init --sharded`). */
  readonly sharded?: true;
  /** How `manifests` writes CRDs, as controller-gen's `crd:` options. Default: as controller-gen does. */
  readonly crd?: CrdSettings;
}

/** controller-gen's `crd:` generator options that tsoperator honours. */
export interface CrdSettings {
  /** The longest description a schema keeps, in bytes; 0 drops them (`crd:maxDescLen`). */
  readonly maxDescLen?: number;
}

/** The whole PROJECT file. */
export interface ProjectConfig {
  readonly version: '3';
  readonly cliVersion: string;
  readonly domain: string;
  readonly layout: readonly string[];
  readonly multigroup: boolean;
  readonly projectName: string;
  readonly resources: readonly ResourceConfig[];
  readonly settings: TsoperatorSettings;
  /** The kinds scaffolded with `create api --image`, and their options. Default: none. */
  readonly deployImage?: readonly DeployImageResource[];
  /** The project has Grafana dashboards (`edit --plugins grafana`). Default: false. */
  readonly grafana?: boolean;
}

/**
 * The group as the API server knows it: `demo.example.org`, the bare domain for an empty group, and
 * the empty core group for Kubernetes' `core` (which has no domain).
 */
export function qualifiedGroup(resource: Pick<ResourceConfig, 'group' | 'domain'>): string {
  if (resource.group === '') return resource.domain;
  if (resource.group === 'core' && resource.domain === '') return '';
  return resource.domain === '' ? resource.group : `${resource.group}.${resource.domain}`;
}

/** `demo.example.org/v1`, or `v1` for the core group. */
export function apiVersionOf(resource: Pick<ResourceConfig, 'group' | 'domain' | 'version'>): string {
  const group = qualifiedGroup(resource);
  return group === '' ? resource.version : `${group}/${resource.version}`;
}

/** The distinct groups that the project's resources use, in the order they were added. */
export function groupsOf(project: ProjectConfig): string[] {
  return [...new Set(project.resources.filter((r) => r.external !== true).map((r) => r.group))];
}

/**
 * The resource for a group/version/kind, if the project has it; with a domain, only in that domain
 * (the user's own `batch` CronJob is not Kubernetes' batch CronJob).
 */
export function findResource(
  project: ProjectConfig,
  gvk: Pick<ResourceConfig, 'group' | 'version' | 'kind'> & { readonly domain?: string },
): ResourceConfig | undefined {
  return project.resources.find(
    (r) =>
      r.group === gvk.group &&
      r.version === gvk.version &&
      r.kind === gvk.kind &&
      (gvk.domain === undefined || r.domain === gvk.domain),
  );
}
