import type { MarkerSet } from '../../markers/index.ts';
import { fieldMarkers, itemsValidationMarkers, validationMarkers } from '../../markers/index.ts';
import type { TypeModel } from '../../gen/crd/type-model.ts';
import type { ApiTypes } from '../../gen/crd/api-types.ts';
import type { LintCheck } from '../lint-check.ts';
import type { LintReport } from '../lint-finding.ts';
import type { ApiField } from '../linted-api.ts';
import { fieldAndTypeMarkers, resolveType } from '../resolve-type.ts';

/** Strings whose format bounds them already, as kube-api-linter exempts them. */
const BOUNDED_FORMATS = new Set(['date', 'date-time', 'duration']);

/**
 * Strings (and bytes) have a MaxLength and lists a MaxItems, and lists of strings bound their items too: this
 * keeps objects small and CEL rules within their cost budget. Off by default, as in kube-api-linter.
 */
export const maxLength: LintCheck = {
  name: 'maxlength',
  help: 'strings have +kubebuilder:validation:MaxLength, lists +kubebuilder:validation:MaxItems',
  enabledByDefault: false,
  configure(settings) {
    settings.done();
    return (api, report) => {
      for (const field of api.fields) checkField(field, api.types, report);
    };
  },
};

function checkField(field: ApiField, types: ApiTypes, report: LintReport): void {
  const markers = fieldAndTypeMarkers(field, types);
  const type = resolveType(field.field.type, types).type;
  const at = field.field.location;
  if (isUnboundedString(type, markers, validationMarkers))
    report(
      at,
      `field ${field.path} must have a maximum length, add kubebuilder:validation:MaxLength marker`,
      'add `// +kubebuilder:validation:MaxLength=<n>` above it',
    );
  if (type.kind !== 'array') return;
  if (!markers.has(validationMarkers.MaxItems) && !markers.has(fieldMarkers.k8sMaxItems))
    report(
      at,
      `field ${field.path} must have a maximum items, add kubebuilder:validation:MaxItems marker`,
      'add `// +kubebuilder:validation:MaxItems=<n>` above it',
    );
  // Items are bounded by the `items:` markers of the field or of the list's alias, or by their own alias.
  const items = resolveType(type.items, types);
  if (
    isUnboundedString(items.type, markers, itemsValidationMarkers) &&
    isUnboundedString(items.type, items.markers, validationMarkers)
  )
    report(
      at,
      `field ${field.path} array element must have a maximum length, add kubebuilder:validation:items:MaxLength marker`,
      'add `// +kubebuilder:validation:items:MaxLength=<n>` above it',
    );
}

function isUnboundedString(
  type: TypeModel,
  markers: MarkerSet,
  definitions: typeof validationMarkers | typeof itemsValidationMarkers,
): boolean {
  // Bytes are base64 text, which kube-api-linter bounds as it bounds strings.
  const isText = (type.kind === 'primitive' && type.type === 'string') || type.kind === 'bytes';
  if (!isText) return false;
  if (markers.has(definitions.MaxLength) || markers.has(definitions.Enum)) return false;
  const format = markers.value(definitions.Format);
  return format === undefined || !BOUNDED_FORMATS.has(format);
}
