import type { MarkerDefinition, ParsedMarker } from '../markers/index.ts';
import { fieldMarkers } from '../markers/index.ts';
import type { ApiField } from './linted-api.ts';

/** The markers that say a field is optional, in kube-api-linter's and controller-gen's spellings. */
export const OPTIONAL_MARKERS: readonly MarkerDefinition[] = [
  fieldMarkers.optional,
  fieldMarkers.Optional,
  fieldMarkers.k8sOptional,
];

/** The markers that say a field is required. */
export const REQUIRED_MARKERS: readonly MarkerDefinition[] = [
  fieldMarkers.required,
  fieldMarkers.Required,
  fieldMarkers.k8sRequired,
];

/** The optional and the required markers written on a field. */
export function presenceMarkers(field: ApiField): { optional: ParsedMarker[]; required: ParsedMarker[] } {
  const markers = field.field.markers;
  return {
    optional: OPTIONAL_MARKERS.flatMap((definition) => markers.get(definition)),
    required: REQUIRED_MARKERS.flatMap((definition) => markers.get(definition)),
  };
}
