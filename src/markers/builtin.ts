import type { MarkerDefinition } from './definition.ts';
import { crdMarkers, packageMarkers } from './definitions/crd.ts';
import { fieldMarkers, fieldOrTypeMarkers, typeOnlyMarkers } from './definitions/field.ts';
import { topologyMarkers } from './definitions/topology.ts';
import { itemsValidationMarkers, validationMarkers } from './definitions/validation.ts';
import { MarkerRegistry } from './registry.ts';

/** Every marker the CRD generator reads. */
export const crdMarkerDefinitions: readonly MarkerDefinition[] = [
  validationMarkers,
  itemsValidationMarkers,
  fieldMarkers,
  fieldOrTypeMarkers,
  typeOnlyMarkers,
  topologyMarkers,
  crdMarkers,
  packageMarkers,
].flatMap((group) => Object.values(group) as MarkerDefinition[]);

/**
 * A registry of all markers tsoperator knows. Generators with markers of their own (rbac, webhook)
 * pass their definitions in `extra`; one registry serves all generators so an rbac marker above a
 * type is not mistaken for a typo.
 */
export function createMarkerRegistry(extra: Iterable<MarkerDefinition> = []): MarkerRegistry {
  return new MarkerRegistry([...crdMarkerDefinitions, ...extra]);
}
