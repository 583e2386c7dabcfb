import { isComparedCrd, type ComparedCrd } from './compared-crd.ts';
import { yamlDocuments } from './yaml-documents.ts';

/**
 * The CRDs among the YAML documents of `text` (other kinds are skipped), also those of a `List`,
 * as `kubectl get crd -o yaml` prints several; `source` names it in errors.
 */
export function crdsInYaml(text: string, source: string): ComparedCrd[] {
  return yamlDocuments(text, source).flatMap(listItems).filter(isComparedCrd);
}

function listItems(doc: unknown): unknown[] {
  const list = doc as { kind?: unknown; items?: unknown } | null;
  return typeof list?.kind === 'string' && list.kind.endsWith('List') && Array.isArray(list.items)
    ? list.items
    : [doc];
}
