import type { JSONSchemaProps } from '../../crd/json-schema-props.ts';
import type { PropertyCheck } from './check.ts';

type BoundKey =
  | 'maximum'
  | 'maxLength'
  | 'maxItems'
  | 'maxProperties'
  | 'minimum'
  | 'minLength'
  | 'minItems'
  | 'minProperties';

/**
 * crdify's upper-bound checks: a bound added where there was none, or lowered, rejects values that
 * were valid, so stored objects stop validating.
 */
function upperBound(key: BoundKey): PropertyCheck {
  return boundCheck(key, 'maximum', (before, after) => after < before, 'decreased');
}

/** crdify's lower-bound checks: a bound added, or raised. */
function lowerBound(key: BoundKey): PropertyCheck {
  return boundCheck(key, 'minimum', (before, after) => after > before, 'increased');
}

function boundCheck(
  key: BoundKey,
  kind: 'maximum' | 'minimum',
  tightened: (before: number, after: number) => boolean,
  verb: string,
): PropertyCheck {
  return {
    name: key,
    scope: 'property',
    defaultEnforcement: 'error',
    keys: [key],
    compare(old: JSONSchemaProps, next: JSONSchemaProps) {
      const before = old[key];
      const after = next[key];
      if (after === undefined) return undefined;
      if (before === undefined) return `${kind} constraint added when there was none previously: ${after}`;
      return tightened(before, after) ? `${kind} ${verb}: ${before} -> ${after}` : undefined;
    },
  };
}

export const boundChecks: readonly PropertyCheck[] = [
  upperBound('maximum'),
  upperBound('maxItems'),
  upperBound('maxLength'),
  upperBound('maxProperties'),
  lowerBound('minimum'),
  lowerBound('minItems'),
  lowerBound('minLength'),
  lowerBound('minProperties'),
];
