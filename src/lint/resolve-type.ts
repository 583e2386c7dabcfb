import type { ApiTypes } from '../gen/crd/api-types.ts';
import type { TypeModel } from '../gen/crd/type-model.ts';
import { MarkerSet } from '../markers/index.ts';
import type { ApiField } from './linted-api.ts';

/** A type with named references and `| null` looked through, and the markers of the aliases passed. */
export interface ResolvedType {
  readonly type: TypeModel;
  readonly markers: MarkerSet;
}

/** Follows aliases (`type Name = string`) and `T | null` to the type they stand for. */
export function resolveType(type: TypeModel, types: ApiTypes): ResolvedType {
  let current = type;
  let markers = new MarkerSet();
  const seen = new Set<string>();
  while (current.kind === 'named' || current.kind === 'nullable') {
    if (current.kind === 'nullable') {
      current = current.inner;
      continue;
    }
    if (seen.has(current.id)) break;
    seen.add(current.id);
    const named = types.get(current.id);
    markers = markers.concat(named.markers);
    current = named.type;
  }
  return { type: current, markers };
}

/** A field's own markers, then those on the aliases its type goes through. */
export function fieldAndTypeMarkers(field: ApiField, types: ApiTypes): MarkerSet {
  return field.field.markers.concat(resolveType(field.field.type, types).markers);
}

/**
 * The types a value of `type` is made of below its lists and maps: `Record<string, number[]>` gives
 * number. A type that holds itself (`type Json = Record<string, Json>`) has no leaf of its own: the
 * generator reports it, and here it ends the walk.
 */
export function leafTypes(type: TypeModel, types: ApiTypes, seen = new Set<TypeModel>()): ResolvedType[] {
  const resolved = resolveType(type, types);
  if (seen.has(resolved.type)) return [];
  seen.add(resolved.type);
  if (resolved.type.kind === 'array') return leafTypes(resolved.type.items, types, seen);
  if (resolved.type.kind === 'map') return leafTypes(resolved.type.values, types, seen);
  return [resolved];
}
