import type { DiagnosticList, MarkerSet, ParsedMarker } from '../../markers/index.ts';
import { DiagnosticCodes } from '../../markers/index.ts';
import type { JSONSchemaProps } from './json-schema-props.ts';
import type { SchemaMarkerRule } from './schema-marker-rules.ts';
import { schemaMarkerRules } from './schema-marker-rules.ts';

const ITEMS_PREFIX = 'kubebuilder:validation:items:';

interface Applicable {
  readonly marker: ParsedMarker;
  readonly rule: SchemaMarkerRule;
}

/**
 * Applies the schema markers of a type or field to its schema, lowest priority first (a stable
 * sort, so equal priorities keep source order); `items:` markers then apply to the array's items.
 * A marker that does not fit the schema (MinLength on an object) is reported at the marker.
 */
export function applySchemaMarkers(
  markers: MarkerSet,
  schema: JSONSchemaProps,
  diagnostics: DiagnosticList,
): void {
  const applicable = markers
    .all()
    .flatMap((marker): Applicable[] => {
      const rule = schemaMarkerRules.get(marker.definition);
      return rule ? [{ marker, rule }] : [];
    })
    .sort((a, b) => a.rule.priority - b.rule.priority);
  const isItems = (a: Applicable): boolean => a.marker.definition.name.startsWith(ITEMS_PREFIX);
  for (const entry of applicable.filter((a) => !isItems(a))) applyOne(entry, schema, diagnostics);
  for (const entry of applicable.filter(isItems)) {
    if (schema.type !== 'array' || schema.items === undefined) {
      const message = `must apply +${entry.marker.definition.name} to an array value, found ${JSON.stringify(schema.type ?? '')}`;
      diagnostics.error(DiagnosticCodes.markerOnWrongSchema, message, entry.marker.location);
    } else applyOne(entry, schema.items, diagnostics);
  }
}

function applyOne({ marker, rule }: Applicable, schema: JSONSchemaProps, diagnostics: DiagnosticList): void {
  const problem = rule.apply(marker.value as never, schema);
  if (problem !== undefined) {
    diagnostics.error(
      DiagnosticCodes.markerOnWrongSchema,
      `${problem} (+${marker.definition.name})`,
      marker.location,
    );
  }
}
