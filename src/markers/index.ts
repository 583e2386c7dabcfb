export type { ArgumentType, ArgumentValue, JsonValue } from './argument-type.ts';
export type {
  ArgumentSpec,
  FieldsValue,
  MarkerArguments,
  MarkerDefinition,
  MarkerTarget,
} from './definition.ts';
export { fieldsMarker, flagMarker, valueMarker } from './definition.ts';
export type { Diagnostic, DiagnosticCode, SourceLocation } from './diagnostic.ts';
export {
  DiagnosticCodes,
  DiagnosticSummaries,
  DiagnosticsError,
  compareDiagnostics,
  formatDiagnostic,
} from './diagnostic.ts';
export { DiagnosticList } from './diagnostic-list.ts';
export type { MarkerName, MarkerSeparator } from './marker-name.ts';
export { canonicalMarkerText, splitMarkerName } from './marker-name.ts';
export { MarkerRegistry } from './registry.ts';
export type { MarkerParseResult } from './marker-parser.ts';
export { parseMarker } from './marker-parser.ts';
export type { ParsedMarker } from './marker-set.ts';
export { MarkerSet } from './marker-set.ts';
export type { CommentBlock, CommentLine } from './comment-lines.ts';
export { commentLines, isMarkerLine } from './comment-lines.ts';
export type { MarkerContext } from './collect.ts';
export { collectFileMarkers, collectMarkers, docCommentBlock, leadingCommentBlocks } from './collect.ts';
export { createMarkerRegistry, crdMarkerDefinitions } from './builtin.ts';
export { crdMarkers, packageMarkers } from './definitions/crd.ts';
export { fieldMarkers, fieldOrTypeMarkers, typeOnlyMarkers } from './definitions/field.ts';
export { topologyMarkers } from './definitions/topology.ts';
export { itemsValidationMarkers, validationMarkers } from './definitions/validation.ts';
export { collectFreeMarkers } from './collect-free.ts';
export { rbacMarkers } from './definitions/rbac.ts';
export { webhookMarkers } from './definitions/webhook.ts';
