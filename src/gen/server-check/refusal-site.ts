import type { MarkerDefinition, ParsedMarker, SourceLocation } from '../../markers/index.ts';
import {
  fieldMarkers,
  itemsValidationMarkers,
  typeOnlyMarkers,
  validationMarkers,
} from '../../markers/index.ts';
import type { CustomResourceDefinition } from '../crd/index.ts';
import type { JSONSchemaProps } from '../crd/json-schema-props.ts';
import type { SchemaSites, SchemaStep } from '../crd/schema-site.ts';

/** A field path the API server names in a CRD's refusal, split into schema steps and the key at fault. */
interface RefusedField {
  readonly version: string;
  readonly steps: readonly SchemaStep[];
  /** What follows the last schema step: `default`, `x-kubernetes-validations[0].rule`, `pattern`, ... */
  readonly key: string;
}

/**
 * A version's schema; `spec.validation` is the API server's internal name of the schema all versions
 * share, which it uses when they have one.
 */
const VERSION_SCHEMA = /^spec\.(?:versions\[(\d+)\]\.schema|validation)\.openAPIV3Schema/;
const STEP = /^\.(?:properties\[([^\]]*)\]|(items)|(additionalProperties))/;

/** Splits `spec.versions[0].schema.openAPIV3Schema.properties[spec].default` as the API server writes it. */
export function parseRefusedField(crd: CustomResourceDefinition, field: string): RefusedField | undefined {
  const head = VERSION_SCHEMA.exec(field);
  const version = crd.spec.versions[Number(head?.[1] ?? 0)]?.name;
  if (!head || version === undefined) return undefined;
  let rest = field.slice(head[0].length);
  const steps: SchemaStep[] = [];
  for (let match = STEP.exec(rest); match; match = STEP.exec(rest)) {
    if (match[1] !== undefined) steps.push({ kind: 'property', name: match[1] });
    else if (match[2] !== undefined) steps.push({ kind: 'items' });
    else steps.push({ kind: 'additionalProperties' });
    rest = rest.slice(match[0].length);
  }
  return { version, steps, key: rest.replace(/^\./, '') };
}

/**
 * Where in the sources a refused schema field was written: the marker that wrote the key at fault
 * (a default, the CEL rule of that text, a validation marker of that name), else the field or type
 * the node stands for, else undefined when the path leads nowhere known.
 */
export function refusalLocation(
  crd: CustomResourceDefinition,
  field: string,
  sitesOf: (key: string) => SchemaSites | undefined,
): SourceLocation | undefined {
  const refused = parseRefusedField(crd, field);
  const sites = refused && sitesOf(`${crd.metadata.name}/${refused.version}`);
  if (!refused || !sites) return undefined;
  const site = sites.at(refused.steps);
  const node = schemaNode(crd, refused);
  return (
    (markerFor(refused.key, node, site.markers) ?? itemsMarkerFor(refused, node, sites))?.location ??
    site.location
  );
}

const ITEMS_PREFIX = 'kubebuilder:validation:items:';

/** An array's items are shaped by `items:` markers too, which stand on the array's field or type. */
function itemsMarkerFor(
  refused: RefusedField,
  node: JSONSchemaProps | undefined,
  sites: SchemaSites,
): ParsedMarker | undefined {
  if (refused.steps.at(-1)?.kind !== 'items') return undefined;
  const array = sites.at(refused.steps.slice(0, -1));
  const items = array.markers.filter((m) => m.definition.name.startsWith(ITEMS_PREFIX));
  return markerFor(refused.key, node, items);
}

function schemaNode(crd: CustomResourceDefinition, refused: RefusedField): JSONSchemaProps | undefined {
  let node = crd.spec.versions.find((v) => v.name === refused.version)?.schema?.openAPIV3Schema;
  for (const step of refused.steps) {
    if (node === undefined) return undefined;
    if (step.kind === 'property') node = node.properties?.[step.name];
    else if (step.kind === 'items') node = node.items;
    else node = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
  }
  return node;
}

const RULE_MARKERS: readonly MarkerDefinition[] = [
  validationMarkers.XValidation,
  itemsValidationMarkers.XValidation,
];
const GENERATED_RULE_MARKERS: readonly MarkerDefinition[] = [
  fieldMarkers.immutable,
  typeOnlyMarkers.AtMostOneOf,
  typeOnlyMarkers.ExactlyOneOf,
  typeOnlyMarkers.AtLeastOneOf,
];

function markerFor(
  key: string,
  node: JSONSchemaProps | undefined,
  markers: readonly ParsedMarker[],
): ParsedMarker | undefined {
  const rule = /^x-kubernetes-validations\[(\d+)\]/.exec(key);
  if (rule) {
    const text = node?.['x-kubernetes-validations']?.[Number(rule[1])]?.rule;
    return (
      markers.find(
        (m) => RULE_MARKERS.includes(m.definition) && (m.value as { rule?: string }).rule === text,
      ) ?? markers.find((m) => GENERATED_RULE_MARKERS.includes(m.definition))
    );
  }
  const name = key.split(/[.[]/)[0] ?? '';
  if (name === 'default')
    return markers.find(
      (m) => m.definition === fieldMarkers.default || m.definition === fieldMarkers.k8sDefault,
    );
  const suffix = `:${name.toLowerCase()}`;
  return markers.find((m) => m.definition.name.toLowerCase().endsWith(suffix));
}
