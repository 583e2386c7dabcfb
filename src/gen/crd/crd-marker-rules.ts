import type { ParsedMarker } from '../../markers/index.ts';
import { crdMarkers } from '../../markers/index.ts';
import type { CustomResourceDefinition, CrdVersion } from './custom-resource-definition.ts';

/** Applies one CRD-level marker of a kind's version; returns why it cannot, if it cannot. */
type CrdMarkerRule = (value: never, crd: CustomResourceDefinition, version: CrdVersion) => string | undefined;

type Value<K extends keyof typeof crdMarkers> = NonNullable<(typeof crdMarkers)[K]['valueType']>;

function keyValues(entries: readonly string[] | undefined, label: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const entry of entries ?? []) {
    const equals = entry.indexOf('=');
    if (equals < 0) return `${label} ${entry} is not in 'key=value' format`;
    out[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return out;
}

const resource = (value: Value<'resource'>, crd: CustomResourceDefinition): string | undefined => {
  const names = crd.spec.names;
  if (value.path) names.plural = value.path;
  if (value.singular) names.singular = value.singular;
  if (value.shortName?.length) names.shortNames = value.shortName;
  if (value.categories?.length) names.categories = value.categories;
  const scope = value.scope || 'Namespaced';
  if (scope !== 'Namespaced' && scope !== 'Cluster')
    return `scope must be Namespaced or Cluster, not ${scope}`;
  crd.spec.scope = scope;
  return undefined;
};

const metadata = (value: Value<'metadata'>, crd: CustomResourceDefinition): string | undefined => {
  const annotations = keyValues(value.annotations, 'annotation');
  const labels = keyValues(value.labels, 'label');
  if (typeof annotations === 'string') return annotations;
  if (typeof labels === 'string') return labels;
  if (Object.keys(annotations).length > 0)
    crd.metadata.annotations = { ...crd.metadata.annotations, ...annotations };
  if (Object.keys(labels).length > 0) crd.metadata.labels = { ...crd.metadata.labels, ...labels };
  return undefined;
};

const printColumn = (
  value: Value<'printColumn'>,
  _: CustomResourceDefinition,
  version: CrdVersion,
): undefined => {
  // controller-gen gives a version with printer columns a subresources object, empty if need be.
  version.subresources ??= {};
  const column = { name: value.name, type: value.type, jsonPath: value.JSONPath };
  version.additionalPrinterColumns = [
    ...(version.additionalPrinterColumns ?? []),
    {
      ...column,
      ...(value.description ? { description: value.description } : {}),
      ...(value.format ? { format: value.format } : {}),
      ...(value.priority ? { priority: value.priority } : {}),
    },
  ];
  return undefined;
};

const scale = (
  value: Value<'scaleSubresource'>,
  _: CustomResourceDefinition,
  version: CrdVersion,
): undefined => {
  const labelSelector = value.selectorpath === undefined ? {} : { labelSelectorPath: value.selectorpath };
  version.subresources = {
    ...version.subresources,
    scale: { specReplicasPath: value.specpath, statusReplicasPath: value.statuspath, ...labelSelector },
  };
  return undefined;
};

const rules = new Map<unknown, CrdMarkerRule>([
  [crdMarkers.resource, resource],
  [crdMarkers.metadata, metadata],
  [crdMarkers.printColumn, printColumn],
  [crdMarkers.scaleSubresource, scale],
  [
    crdMarkers.statusSubresource,
    (_value, _crd, version) => void (version.subresources = { ...version.subresources, status: {} }),
  ],
  [crdMarkers.storageVersion, (_value, _crd, version) => void (version.storage = true)],
  [crdMarkers.unservedVersion, (_value, _crd, version) => void (version.served = false)],
  [
    crdMarkers.deprecatedVersion,
    (value: Value<'deprecatedVersion'>, _crd: CustomResourceDefinition, version: CrdVersion) => {
      version.deprecated = true;
      if (value.warning !== undefined) version.deprecationWarning = value.warning;
      return undefined;
    },
  ],
  [
    crdMarkers.selectableField,
    (value: Value<'selectableField'>, _crd: CustomResourceDefinition, version: CrdVersion) => {
      version.selectableFields = [...(version.selectableFields ?? []), { jsonPath: value.JSONPath }];
      return undefined;
    },
  ],
]);

/** Applies a CRD-level marker (resource, subresources, printer columns, versions); others are ignored. */
export function applyCrdMarker(
  marker: ParsedMarker,
  crd: CustomResourceDefinition,
  version: CrdVersion,
): string | undefined {
  return rules.get(marker.definition)?.(marker.value as never, crd, version);
}
