import assert from 'node:assert/strict';
import { dump } from 'js-yaml';

/**
 * Asserts that two sets of manifests are equal as parsed objects. Each side is written as YAML with
 * sorted keys first, so a failure shows a line diff of the fields that differ instead of a
 * truncated object dump.
 */
export function assertSameManifests(actual: unknown, expected: unknown, what: string): void {
  assert.equal(canonicalYaml(actual), canonicalYaml(expected), `${what} differs from controller-gen's`);
}

function canonicalYaml(value: unknown): string {
  return dump(value, { sortKeys: true, lineWidth: -1, noRefs: true });
}
