import type { ManifestObject } from '../deploy/manifest-object.ts';

/**
 * The kinds a registry+v1 bundle may carry besides the CSV, as operator-registry lists them: OLM
 * applies these itself. The rest (the Namespace, cert-manager's objects) it does not install, or
 * makes from the CSV (Deployments, webhook configurations).
 */
const BUNDLE_KINDS: ReadonlySet<string> = new Set([
  'CustomResourceDefinition',
  'Secret',
  'ConfigMap',
  'Service',
  'ServiceAccount',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
  'PrometheusRule',
  'ServiceMonitor',
  'PodDisruptionBudget',
  'PriorityClass',
  'VerticalPodAutoscaler',
  'NetworkPolicy',
  'ConsoleYAMLSample',
  'ConsoleQuickStart',
  'ConsoleCLIDownload',
  'ConsoleLink',
]);

/** The kinds the CSV stands for, so not left out but folded in. */
const FOLDED_KINDS: ReadonlySet<string> = new Set([
  'Deployment',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

/** cert-manager's annotation: OLM issues the webhook certificates of a bundle itself. */
const INJECT_CA_ANNOTATION = 'cert-manager.io/inject-ca-from';

export interface BundleManifests {
  /** File name in bundle/manifests → object. */
  readonly files: ReadonlyMap<string, ManifestObject>;
  /** `Kind/name` of the objects OLM cannot install from a bundle, for the user to know. */
  readonly leftOut: readonly string[];
}

/**
 * The objects of bundle/manifests beside the CSV, named as operator-sdk names them
 * (`<group>_<plural>.yaml` for CRDs, `<name>_<group>_<version>_<kind>.yaml` for the rest) and
 * without a namespace: OLM installs them in the namespace the operator is installed in.
 */
export function bundleManifests(
  objects: readonly ManifestObject[],
  folded: ReadonlySet<ManifestObject>,
): BundleManifests {
  const files = new Map<string, ManifestObject>();
  const leftOut: string[] = [];
  for (const object of objects) {
    if (folded.has(object) || FOLDED_KINDS.has(object.kind)) continue;
    if (!BUNDLE_KINDS.has(object.kind)) {
      leftOut.push(`${object.kind}/${object.metadata.name}`);
      continue;
    }
    let name = fileName(object);
    for (let copy = 0; files.has(name); copy++) name = `dup${copy}_${fileName(object)}`;
    files.set(name, forBundle(object));
  }
  return { files, leftOut };
}

function fileName(object: ManifestObject): string {
  const spec = object['spec'] as { group?: string; names?: { plural?: string } } | undefined;
  if (object.kind === 'CustomResourceDefinition' && spec?.group && spec.names?.plural)
    return `${spec.group}_${spec.names.plural}.yaml`;
  const apiVersion = typeof object['apiVersion'] === 'string' ? object['apiVersion'] : '';
  const groupVersion = apiVersion.includes('/') ? apiVersion.replace('/', '_') : apiVersion;
  return `${object.metadata.name}_${groupVersion}_${object.kind.toLowerCase()}.yaml`;
}

function forBundle(object: ManifestObject): ManifestObject {
  const metadata: Record<string, unknown> = { ...object.metadata };
  delete metadata['namespace'];
  const annotations = Object.fromEntries(
    Object.entries((metadata['annotations'] as Record<string, string> | undefined) ?? {}).filter(
      ([key]) => key !== INJECT_CA_ANNOTATION,
    ),
  );
  if (Object.keys(annotations).length > 0) metadata['annotations'] = annotations;
  else delete metadata['annotations'];
  return { ...object, metadata: metadata as ManifestObject['metadata'] };
}
