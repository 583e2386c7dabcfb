import { fieldMarkers } from '../../markers/index.ts';
import type { FieldModel } from './type-model.ts';

/**
 * Whether a field is in its object's `required` list, decided in controller-gen's order: explicit
 * `+kubebuilder:validation:Optional`/`Required`, then `+optional`/`+k8s:optional`, then
 * `+required`/`+k8s:required`, then the default — required unless written with `?` (Go's
 * omitempty), or optional throughout a folder marked `+kubebuilder:validation:Optional`.
 */
export function fieldIsRequired(field: FieldModel, optionalByDefault: boolean): boolean {
  const has = field.markers.has.bind(field.markers);
  if (has(fieldMarkers.Optional)) return false;
  if (has(fieldMarkers.Required)) return true;
  if (has(fieldMarkers.optional) || has(fieldMarkers.k8sOptional)) return false;
  if (has(fieldMarkers.required) || has(fieldMarkers.k8sRequired)) return true;
  return !optionalByDefault && !field.optional;
}
