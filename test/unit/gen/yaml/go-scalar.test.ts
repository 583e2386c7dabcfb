import { it } from 'node:test';
import assert from 'node:assert/strict';
import { scalarStyle } from '../../../../src/gen/yaml/go-scalar.ts';

it('double-quotes strings that would read back as another type, as go-yaml v2 does', () => {
  for (const value of ['', 'true', 'no', '8080', '1.5', '~', 'null'])
    assert.equal(scalarStyle(value), 'double', value);
});

it('single-quotes strings plain YAML cannot start with, and leaves the rest plain', () => {
  assert.equal(scalarStyle('*'), 'single');
  assert.equal(scalarStyle('- item'), 'single');
  assert.equal(scalarStyle('apps'), 'plain');
  assert.equal(scalarStyle('two\nlines'), 'literal');
});
