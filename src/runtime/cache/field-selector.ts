import type { KubeObject } from '../api/kube-object.ts';

/** One term of a field selector: the field's path, and the value it must (or must not) have. */
export interface FieldRequirement {
  readonly path: readonly string[];
  readonly equal: boolean;
  readonly value: string;
}

/**
 * Parses a field selector as the API server reads it: `a.b=c`, `a.b==c`, `a.b!=c`, joined by
 * commas. Throws on a term of another form.
 */
export function parseFieldSelector(text: string): readonly FieldRequirement[] {
  return text
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '')
    .map((term) => {
      const match = /^([^!=\s]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
      if (!match) throw new Error(`field selector term "${term}" is not field=value or field!=value`);
      const [, field = '', op, value = ''] = match;
      return { path: field.split('.'), equal: op !== '!=', value: value.trim() };
    });
}

/**
 * Whether `obj` passes every requirement, comparing the field's value as a string as the API
 * server does (a missing field reads as ''). Used to tell whether a write can show in a cache
 * that watches with this selector.
 */
export function matchesFields(requirements: readonly FieldRequirement[], obj: KubeObject): boolean {
  return requirements.every((r) => (fieldText(obj, r.path) === r.value) === r.equal);
}

function fieldText(obj: KubeObject, path: readonly string[]): string {
  let value: unknown = obj;
  for (const step of path) {
    if (value === null || typeof value !== 'object') return '';
    value = (value as Record<string, unknown>)[step];
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
