import { isComparedCrd, type ComparedCrd } from './compared-crd.ts';
import { yamlDocuments } from './yaml-documents.ts';

/** The CRDs among the YAML documents of `text` (other kinds are skipped); `source` names it in errors. */
export function crdsInYaml(text: string, source: string): ComparedCrd[] {
  return yamlDocuments(text, source).filter(isComparedCrd);
}
