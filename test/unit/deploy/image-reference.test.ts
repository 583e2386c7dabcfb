import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatImageReference, parseImageReference } from '../../../src/deploy/image-reference.ts';
import { UsageError } from '../../../src/errors.ts';

test('an image reference splits into name and tag, a registry port staying in the name', () => {
  assert.deepEqual(parseImageReference('ghcr.io/acme/op:v1'), { name: 'ghcr.io/acme/op', tag: 'v1' });
  assert.deepEqual(parseImageReference('localhost:5000/op'), { name: 'localhost:5000/op', tag: 'latest' });
  assert.deepEqual(parseImageReference('controller'), { name: 'controller', tag: 'latest' });
});

test('a digest pins the image, with or without a tag', () => {
  const digest = `sha256:${'a'.repeat(64)}`;
  assert.deepEqual(parseImageReference(`op@${digest}`), { name: 'op', digest });
  assert.deepEqual(parseImageReference(`op:v1@${digest}`), { name: 'op', tag: 'v1', digest });
  assert.equal(formatImageReference({ name: 'op', tag: 'v1', digest }), `op:v1@${digest}`);
});

test('a reference that is not one is a usage error', () => {
  for (const bad of ['', 'op:', ':v1', 'op@sha256:short', 'op@a@b']) {
    assert.throws(() => parseImageReference(bad), UsageError, bad);
  }
});
