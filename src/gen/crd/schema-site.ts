import type { ParsedMarker, SourceLocation } from '../../markers/index.ts';
import type { ApiTypes } from './api-types.ts';
import type { FieldModel, ObjectModel, TypeModel } from './type-model.ts';

/** One step into a schema: a property by name, the items of an array, the values of a map. */
export type SchemaStep =
  | { readonly kind: 'property'; readonly name: string }
  | { readonly kind: 'items' }
  | { readonly kind: 'additionalProperties' };

/**
 * The source of one schema node: the markers that shaped it (the field's, then those of the named
 * types its type goes through) and where to point when no single marker is at fault.
 */
export interface SchemaSite {
  readonly markers: readonly ParsedMarker[];
  readonly location: SourceLocation;
}

/**
 * Maps a path in a kind's generated schema back to the TypeScript that made it, so that a problem
 * found in the YAML (by a check here, or by the API server) is reported at its marker's file:line:col.
 */
export class SchemaSites {
  readonly #types: ApiTypes;
  readonly #rootId: string;

  constructor(types: ApiTypes, rootId: string) {
    this.#types = types;
    this.#rootId = rootId;
  }

  /** The site of the node at `path` from the kind's root; as deep as the types go (known types end it). */
  at(path: readonly SchemaStep[]): SchemaSite {
    let site = this.#unwrap({ kind: 'named', id: this.#rootId }, this.#types.get(this.#rootId).location);
    for (const step of path) {
      const next = this.#step(site.model, site.location, step);
      if (next === undefined) break;
      site = this.#unwrap(next.type, next.location, next.markers);
    }
    return { markers: site.markers, location: site.location };
  }

  #step(
    model: TypeModel,
    location: SourceLocation,
    step: SchemaStep,
  ): { type: TypeModel; location: SourceLocation; markers: readonly ParsedMarker[] } | undefined {
    if (step.kind === 'property' && model.kind === 'object') {
      const field = this.#field(model.object, step.name);
      return field && { type: field.type, location: field.location, markers: field.markers.all() };
    }
    if (step.kind === 'items' && model.kind === 'array') return { type: model.items, location, markers: [] };
    if (step.kind === 'additionalProperties' && model.kind === 'map')
      return { type: model.values, location, markers: [] };
    return undefined;
  }

  /** A field of an object, or of the types it embeds (Go's inlined structs). */
  #field(object: ObjectModel, name: string): FieldModel | undefined {
    const own = object.fields.find((field) => field.name === name);
    if (own) return own;
    for (const embedded of object.embedded) {
      const model = this.#unwrap(embedded, this.#types.get(this.#rootId).location).model;
      const found = model.kind === 'object' ? this.#field(model.object, name) : undefined;
      if (found) return found;
    }
    return undefined;
  }

  /** Follows named types and nullability to the model that has the shape, collecting markers. */
  #unwrap(
    model: TypeModel,
    location: SourceLocation,
    markers: readonly ParsedMarker[] = [],
  ): { model: TypeModel; location: SourceLocation; markers: readonly ParsedMarker[] } {
    const seen = new Set<string>();
    let current = model;
    let collected = markers;
    for (;;) {
      if (current.kind === 'nullable') current = current.inner;
      else if (current.kind === 'named' && !seen.has(current.id)) {
        seen.add(current.id);
        const named = this.#types.get(current.id);
        collected = [...collected, ...named.markers.all()];
        current = named.type;
      } else return { model: current, location, markers: collected };
    }
  }
}
