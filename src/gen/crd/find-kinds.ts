import type { InterfaceDeclaration, SourceFile } from 'ts-morph';
import type { MarkerContext } from '../../markers/index.ts';
import { DiagnosticList, collectMarkers, crdMarkers } from '../../markers/index.ts';

/**
 * The kinds among some files: exported interfaces with apiVersion, kind and object metadata, or
 * marked `+kubebuilder:object:root=true`; list types (`items`, ListMeta metadata) are not kinds.
 */
export function findKinds(files: readonly SourceFile[], context: MarkerContext): InterfaceDeclaration[] {
  return files
    .flatMap((file) => file.getInterfaces())
    .filter((declaration) => declaration.isExported() && isKind(declaration, context));
}

/** A kind's list type (`items`, or ListMeta metadata): no schema of its own. */
export function isKindList(declaration: InterfaceDeclaration): boolean {
  return (
    declaration.getProperty('items') !== undefined ||
    /ListMeta/.test(declaration.getProperty('metadata')?.getTypeNode()?.getText() ?? '')
  );
}

function isKind(declaration: InterfaceDeclaration, context: MarkerContext): boolean {
  if (isKindList(declaration)) return false;
  const hasTypeMeta = ['apiVersion', 'kind', 'metadata'].every((name) => declaration.getProperty(name));
  if (hasTypeMeta) return true;
  // Marker errors are reported once, when the type itself is parsed; here only the flag matters.
  const quiet: MarkerContext = { ...context, diagnostics: new DiagnosticList() };
  return collectMarkers(declaration, 'type', quiet).value(crdMarkers.objectRoot) === true;
}
