import { labelKeyErrors, labelValueErrors } from './label-syntax.ts';

/** A parsed label selector: every requirement must hold. */
export type LabelSelector = readonly LabelRequirement[];

/** How a requirement compares a label: `!` is "has no such label"; `gt` and `lt` compare integers. */
export type LabelOperator = 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** One requirement of a label selector. */
export interface LabelRequirement {
  readonly key: string;
  readonly op: LabelOperator;
  readonly values: readonly string[];
}

/**
 * A selector the API server would refuse. Its message is the API server's own for the same
 * selector, so the cache and the API server fail alike.
 */
export class LabelSelectorError extends Error {
  override readonly name = 'LabelSelectorError';
}

/**
 * A requirement, checked as apimachinery's NewRequirement checks it: a valid label key, values
 * that are label values, at least one for `in`/`notin`, none for `exists`/`!`, and one integer
 * for `gt`/`lt`. Throws a {@link LabelSelectorError} listing what is wrong.
 */
export function labelRequirement(
  key: string,
  op: LabelOperator,
  values: readonly string[],
): LabelRequirement {
  const errors: string[] = [];
  const keyErrors = labelKeyErrors(key);
  if (keyErrors.length > 0) errors.push(invalid('key', key, keyErrors.join('; ')));
  if ((op === 'in' || op === 'notin') && values.length === 0) {
    errors.push(invalid('values', values, "for 'in', 'notin' operators, values set can't be empty"));
  }
  if ((op === 'exists' || op === '!') && values.length > 0) {
    errors.push(invalid('values', values, 'values set must be empty for exists and does not exist'));
  }
  if (op === 'gt' || op === 'lt') {
    if (values.length !== 1) {
      errors.push(invalid('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"));
    }
    values.forEach((value, i) => {
      if (parseInt64(value) === undefined) {
        errors.push(invalid(`values[${i}]`, value, "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
    });
  }
  values.forEach((value, i) => {
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length > 0) errors.push(invalid(`values[${i}][${key}]`, value, valueErrors.join('; ')));
  });
  if (errors.length > 0) throw new LabelSelectorError(aggregate(errors));
  return { key, op, values };
}

/** Whether `labels` satisfy every requirement. */
export function matchesLabels(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return selector.every((requirement) => matches(requirement, labels?.[requirement.key]));
}

function matches({ op, values }: LabelRequirement, value: string | undefined): boolean {
  switch (op) {
    case 'exists':
      return value !== undefined;
    case '!':
      return value === undefined;
    case 'in':
      return value !== undefined && values.includes(value);
    case 'notin':
      return value === undefined || !values.includes(value);
    case 'gt':
    case 'lt': {
      const have = value === undefined ? undefined : parseInt64(value);
      const want = values.length === 1 ? parseInt64(values[0] ?? '') : undefined;
      if (have === undefined || want === undefined) return false;
      return op === 'gt' ? have > want : have < want;
    }
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The value as Go's strconv.ParseInt(value, 10, 64) reads it, or undefined where that fails. */
export function parseInt64(value: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(value)) return undefined;
  const n = BigInt(value);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/** A field error as the API server words it: `path: Invalid value: "value": detail`. */
function invalid(path: string, value: string | readonly string[], detail: string): string {
  return `${path}: Invalid value: ${JSON.stringify(value)}: ${detail}`;
}

/** Several errors as one, as apimachinery's aggregate: `[a, b]`, duplicates left out. */
function aggregate(errors: readonly string[]): string {
  const distinct = [...new Set(errors)];
  return distinct.length === 1 ? (distinct[0] ?? '') : `[${distinct.join(', ')}]`;
}
