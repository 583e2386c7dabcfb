import { loadAll } from 'js-yaml';
import { TsoperatorError } from '../../errors.ts';
import { isComparedCrd, type ComparedCrd } from './compared-crd.ts';

/** The CRDs among the YAML documents of `text` (other kinds are skipped); `source` names it in errors. */
export function crdsInYaml(text: string, source: string): ComparedCrd[] {
  let documents: unknown[];
  try {
    documents = loadAll(text);
  } catch (err) {
    throw new TsoperatorError(`${source} is not valid YAML: ${(err as Error).message}`, { cause: err });
  }
  return documents.filter(isComparedCrd);
}
