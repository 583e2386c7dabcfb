import type { DiagnosticList, MarkerSet, SourceLocation } from '../../markers/index.ts';
import { DiagnosticCodes, crdMarkers } from '../../markers/index.ts';
import { pluralize } from '../../project/plural.ts';
import { compareBytes } from '../byte-order.ts';
import { applyCrdMarker } from './crd-marker-rules.ts';
import type { CrdVersion, CustomResourceDefinition } from './custom-resource-definition.ts';
import type { JSONSchemaProps } from './json-schema-props.ts';
import type { SchemaSites } from './schema-site.ts';

/** One version of a kind: its flattened root schema and the markers on its declaration. */
export interface KindVersion {
  readonly version: string;
  readonly schema: JSONSchemaProps;
  readonly markers: MarkerSet;
  readonly location: SourceLocation;
  /** Where each node of `schema` came from. */
  readonly sites: SchemaSites;
}

/** The annotation that says which tool and version wrote a CRD (controller-gen writes its own). */
export const GENERATOR_ANNOTATION = 'tsoperator.dev/version';

/**
 * The CRD of one group and kind, from all its versions (several version folders make one
 * multi-version CRD), with the CRD-level markers applied and controller-gen's version checks.
 */
export function buildCrd(
  group: string,
  kind: string,
  versions: readonly KindVersion[],
  generatorVersion: string,
  diagnostics: DiagnosticList,
): CustomResourceDefinition | undefined {
  const plural = pluralize(kind.toLowerCase());
  const crd: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: '', annotations: { [GENERATOR_ANNOTATION]: generatorVersion } },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      scope: 'Namespaced',
      versions: [],
    },
  };
  const skipped = new Set<CrdVersion>();
  for (const source of versions) {
    const version: CrdVersion = {
      name: source.version,
      served: true,
      storage: false,
      schema: { openAPIV3Schema: source.schema },
    };
    crd.spec.versions.push(version);
    if (source.markers.has(crdMarkers.skipVersion)) skipped.add(version);
    for (const marker of source.markers.all()) {
      const problem = applyCrdMarker(marker, crd, version);
      if (problem !== undefined)
        diagnostics.error(
          DiagnosticCodes.invalidCrd,
          `${problem} (+${marker.definition.name})`,
          marker.location,
        );
    }
  }
  crd.spec.versions = crd.spec.versions
    .filter((v) => !skipped.has(v))
    .sort((a, b) => compareBytes(a.name, b.name));
  crd.metadata.name = `${crd.spec.names.plural}.${group}`;
  return checkVersions(crd, versions[0]?.location, diagnostics) ? crd : undefined;
}

function checkVersions(
  crd: CustomResourceDefinition,
  at: SourceLocation | undefined,
  diagnostics: DiagnosticList,
): boolean {
  const versions = crd.spec.versions;
  if (versions.length === 0 || at === undefined) return false;
  const only = versions[0];
  if (versions.length === 1 && only) only.storage = true;
  const report = (message: string): void => diagnostics.error(DiagnosticCodes.invalidCrd, message, at);
  const storage = versions.filter((v) => v.storage).length;
  const kind = `${crd.spec.names.kind}.${crd.spec.group}`;
  if (storage === 0)
    report(`CRD for ${kind} has no storage version; mark one version +kubebuilder:storageversion`);
  if (storage > 1)
    report(`CRD for ${kind} has ${storage} storage versions; mark only one +kubebuilder:storageversion`);
  if (!versions.some((v) => v.served)) report(`CRD for ${kind} does not serve any version`);
  return storage === 1;
}
