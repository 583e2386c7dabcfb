import type { ManifestObject } from '../deploy/manifest-object.ts';
import type { CsvDocument } from './base-csv.ts';
import { csvPermissions } from './csv-permissions.ts';
import { webhookDefinitions } from './csv-webhooks.ts';
import { installDeployments } from './install-deployments.ts';
import { ownedCrds, type OwnedCrd } from './owned-crds.ts';

export interface CsvInputs {
  /** The user's base CSV: its metadata (description, icon, maintainers...) are kept as written. */
  readonly base: CsvDocument;
  readonly packageName: string;
  readonly version: string;
  /** config/default as kustomize builds it. */
  readonly objects: readonly ManifestObject[];
  /** config/samples as kustomize builds it: the custom resources become the CSV's examples. */
  readonly samples: readonly ManifestObject[];
  /** Annotations naming the tool that built the CSV. */
  readonly annotations: Readonly<Record<string, string>>;
}

export interface BuiltCsv {
  readonly csv: CsvDocument;
  /** The objects the CSV stands for, which the bundle does not ship. */
  readonly folded: ReadonlySet<ManifestObject>;
}

/**
 * The ClusterServiceVersion operator-sdk's generate bundle makes: the base CSV with its name and
 * version set, and everything it can learn from config/ (install strategy, permissions, owned
 * CRDs, webhooks, examples) replaced by what config/ holds now.
 */
export function buildClusterServiceVersion(inputs: CsvInputs): BuiltCsv {
  const { base, objects } = inputs;
  const deployments = installDeployments(objects);
  const accounts = [
    ...new Set(
      deployments.map(
        (d) =>
          (d.spec['template'] as { spec?: { serviceAccountName?: string } } | undefined)?.spec
            ?.serviceAccountName ?? 'default',
      ),
    ),
  ];
  const { permissions, clusterPermissions, folded } = csvPermissions(objects, accounts);
  const baseCrds = (base.spec['customresourcedefinitions'] ?? {}) as { owned?: OwnedCrd[] };
  const owned = ownedCrds(objects, baseCrds.owned ?? []);
  const webhooks = webhookDefinitions(objects);
  const csv: CsvDocument = {
    ...base,
    metadata: {
      ...base.metadata,
      name: `${inputs.packageName}.v${inputs.version}`,
      annotations: {
        ...base.metadata.annotations,
        'alm-examples': JSON.stringify(examples(objects, inputs.samples), null, 2),
        ...inputs.annotations,
      },
    },
    spec: {
      ...base.spec,
      customresourcedefinitions: { ...baseCrds, ...(owned.length > 0 ? { owned } : {}) },
      install: {
        strategy: 'deployment',
        spec: {
          deployments,
          ...(permissions.length > 0 ? { permissions } : {}),
          ...(clusterPermissions.length > 0 ? { clusterPermissions } : {}),
        },
      },
      version: inputs.version,
      ...(webhooks.length > 0 ? { webhookdefinitions: webhooks } : {}),
    },
  };
  if (webhooks.length === 0) delete csv.spec['webhookdefinitions'];
  return { csv, folded };
}

/** The samples whose kind a CRD of the project defines, in the order config/samples lists them. */
function examples(objects: readonly ManifestObject[], samples: readonly ManifestObject[]): ManifestObject[] {
  const kinds = new Set(
    objects
      .filter((object) => object.kind === 'CustomResourceDefinition')
      .flatMap((crd) => {
        const spec = crd['spec'] as { group: string; names: { kind: string }; versions: { name: string }[] };
        return spec.versions.map((version) => `${spec.group}/${version.name} ${spec.names.kind}`);
      }),
  );
  return samples.filter((sample) => kinds.has(`${String(sample['apiVersion'])} ${sample.kind}`));
}
