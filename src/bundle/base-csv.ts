import { load } from 'js-yaml';
import { TsoperatorError } from '../errors.ts';
import { writeYaml } from '../gen/yaml/write-yaml.ts';
import type { YamlValue } from '../gen/yaml/yaml-value.ts';

/** The folder of the base CSV, where operator-sdk keeps it (its `--kustomize-dir` is config/manifests). */
export const BASE_CSV_DIR = 'config/manifests/bases';

/** `config/manifests/bases/<package>.clusterserviceversion.yaml`. */
export function baseCsvPath(packageName: string): string {
  return `${BASE_CSV_DIR}/${packageName}.clusterserviceversion.yaml`;
}

/** What the base CSV's placeholders are made from. */
export interface BaseCsvProject {
  readonly packageName: string;
  readonly domain: string;
  readonly owner?: string;
  /** A namespaced operator installs in its own namespace only; a cluster-wide one watches all. */
  readonly namespaced: boolean;
}

/** A CSV as YAML holds it: the fields generate bundle reads and writes are checked where read. */
export type CsvDocument = Record<string, unknown> & {
  metadata: Record<string, unknown> & { name: string; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
};

const HEADER = [
  "# The ClusterServiceVersion's metadata for OperatorHub: edit the description, icon, keywords,",
  '# links, maintainers, provider and install modes here. `tsoperator generate bundle` completes it',
  '# from config/ (install strategy, permissions, owned CRDs, webhooks) and writes bundle/.',
].join('\n');

/** A small, valid icon (OperatorHub's validator wants one with data and media type): replace it. */
const PLACEHOLDER_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#3178c6"/>' +
  '<circle cx="32" cy="32" r="14" fill="none" stroke="#fff" stroke-width="6"/></svg>';

/**
 * The base CSV init scaffolds (and generate bundle writes when it is missing): the fields of
 * operator-sdk's `generate kustomize manifests` base, with placeholders that pass OperatorHub's
 * validation so that a first bundle validates before the user has filled them in.
 */
export function renderBaseCsv(project: BaseCsvProject): string {
  const displayName = project.packageName
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
  const owner = project.owner ?? 'Provider Name';
  const csv: YamlValue = {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: {
      annotations: { 'alm-examples': '[]', capabilities: 'Basic Install' },
      name: `${project.packageName}.v0.0.0`,
      namespace: 'placeholder',
    },
    spec: {
      apiservicedefinitions: {},
      customresourcedefinitions: {},
      description: `${displayName}: describe what the operator manages and how to use it.`,
      displayName,
      icon: [{ base64data: Buffer.from(PLACEHOLDER_ICON).toString('base64'), mediatype: 'image/svg+xml' }],
      install: { spec: { deployments: null }, strategy: '' },
      installModes: [
        { supported: project.namespaced, type: 'OwnNamespace' },
        { supported: false, type: 'SingleNamespace' },
        { supported: false, type: 'MultiNamespace' },
        { supported: !project.namespaced, type: 'AllNamespaces' },
      ],
      keywords: [project.packageName],
      links: [{ name: displayName, url: `https://${project.packageName}.${project.domain}` }],
      maintainers: [{ email: `maintainers@${project.domain}`, name: owner }],
      maturity: 'alpha',
      minKubeVersion: '1.28.0',
      provider: { name: owner, url: `https://${project.domain}` },
      version: '0.0.0',
    },
  };
  return `${HEADER}\n${writeYaml(csv)}`;
}

/** The base CSV's model; `path` names it in errors. */
export function parseBaseCsv(text: string, path: string): CsvDocument {
  let document: unknown;
  try {
    document = load(text);
  } catch (err) {
    throw new TsoperatorError(`${path} is not valid YAML: ${(err as Error).message}`, { cause: err });
  }
  const csv = document as Partial<CsvDocument> | null;
  if (
    csv?.['kind'] !== 'ClusterServiceVersion' ||
    typeof csv.metadata !== 'object' ||
    csv.metadata === null
  ) {
    throw new TsoperatorError(
      `${path} is not a ClusterServiceVersion: restore it, or delete it and generate bundle writes a new one`,
    );
  }
  return { ...csv, metadata: { ...csv.metadata }, spec: { ...(csv.spec ?? {}) } };
}
