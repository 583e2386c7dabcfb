import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';

/** At most this many differences are listed; the first few say what is wrong. */
const MAX_DIFFERENCES = 40;

/**
 * Asserts that two manifests (or lists of them) are equal as parsed objects. A failure lists each
 * difference with its path, e.g. `[0].spec.versions[0].schema...properties.replicas.minimum: 1
 * (controller-gen: 0)`, which reads better than a diff of two CRDs of thousands of lines.
 */
export function assertSameManifests(actual: unknown, expected: unknown, what: string): void {
  if (isDeepStrictEqual(actual, expected)) return;
  const found: string[] = [];
  collectDifferences(actual, expected, '', found);
  const shown = found.slice(0, MAX_DIFFERENCES);
  const more = found.length > shown.length ? `\n  ... and ${found.length - shown.length} more` : '';
  assert.fail(`${what} differs from controller-gen's:\n  ${shown.join('\n  ')}${more}`);
}

function collectDifferences(actual: unknown, expected: unknown, path: string, found: string[]): void {
  if (isDeepStrictEqual(actual, expected)) return;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length && !actual.concat(expected).some(isObject)) {
      found.push(`${path}: ${brief(actual)} (controller-gen: ${brief(expected)})`);
      return;
    }
    for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
      collectDifferences(actual[i], expected[i], `${path}[${i}]`, found);
    }
    return;
  }
  if (isObject(actual) && isObject(expected)) {
    const keys = [...new Set([...Object.keys(actual), ...Object.keys(expected)])].sort();
    for (const key of keys) collectDifferences(actual[key], expected[key], `${path}.${key}`, found);
    return;
  }
  if (actual === undefined) found.push(`${path}: missing (controller-gen: ${brief(expected)})`);
  else if (expected === undefined) found.push(`${path}: ${brief(actual)} (controller-gen has none)`);
  else found.push(`${path}: ${brief(actual)} (controller-gen: ${brief(expected)})`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 160)}...` : text;
}
