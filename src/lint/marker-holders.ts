import type { MarkerSet, SourceLocation } from '../markers/index.ts';
import type { LintedApi } from './linted-api.ts';
import { fieldAndTypeMarkers } from './resolve-type.ts';

/** A declaration markers stand on: a field (with the markers of its type's aliases) or a named type. */
export interface MarkerHolder {
  /** `field WebAppSpec.replicas` or `type Name`, for messages. */
  readonly what: string;
  /** The markers written on the declaration itself. */
  readonly own: MarkerSet;
  /** `own`, then the markers its type carries (for a field, the aliases of its type). */
  readonly all: MarkerSet;
  readonly location: SourceLocation;
}

/** Every field and named type of the API, with its markers. */
export function markerHolders(api: LintedApi): MarkerHolder[] {
  const fields = api.fields.map((field): MarkerHolder => ({
    what: `field ${field.path}`,
    own: field.field.markers,
    all: fieldAndTypeMarkers(field, api.types),
    location: field.field.location,
  }));
  const types = api.named.map((type): MarkerHolder => ({
    what: `type ${type.name}`,
    own: type.markers,
    all: type.markers,
    location: type.location,
  }));
  return [...fields, ...types];
}
