import { loadAll } from 'js-yaml';
import { TsoperatorError } from '../../errors.ts';

/** The YAML documents of `text` (none for an empty file); `source` names it when it is not YAML. */
export function yamlDocuments(text: string, source: string): unknown[] {
  try {
    return loadAll(text);
  } catch (err) {
    throw new TsoperatorError(`${source} is not valid YAML: ${(err as Error).message}`, { cause: err });
  }
}
