import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  hasKnownType,
  knownTypeNames,
  knownTypeOutline,
  knownTypeSchema,
  sharedKnownTypeSchema,
} from '../../../src/gen/crd/known-types/index.ts';
import {
  compactKnownTypes,
  expandKnownType,
} from '../../../src/gen/crd/known-types/known-type-references.ts';

test('knownTypeSchema answers for the core types a CRD embeds', () => {
  for (const name of ['V1PodTemplateSpec', 'V1ResourceRequirements', 'V1EnvVar', 'V1Container', 'V1Volume']) {
    assert.equal(knownTypeSchema(name)?.['type'], 'object', name);
  }
  for (const name of ['V1Toleration', 'V1Affinity', 'V1LocalObjectReference', 'V1SecretKeySelector']) {
    assert.equal(knownTypeSchema(name)?.['type'], 'object', name);
  }
  for (const name of ['V1ObjectReference', 'V1LabelSelector', 'V1Condition', 'V1ObjectMeta']) {
    assert.equal(knownTypeSchema(name)?.['type'], 'object', name);
  }
});

test('knownTypeSchema expands references to the types a schema contains', () => {
  const template = knownTypeSchema('V1PodTemplateSpec');
  const spec = (template?.['properties'] as Record<string, Record<string, unknown>>)['spec'];
  const containers = (spec?.['properties'] as Record<string, Record<string, unknown>>)['containers'];
  const item = { ...(containers?.['items'] as Record<string, unknown>), description: undefined };
  assert.deepEqual(item, { ...knownTypeSchema('V1Container'), description: undefined });
  assert.doesNotMatch(JSON.stringify(template), /\$known/);
});

test('knownTypeSchema returns a copy the caller may change', () => {
  const first = knownTypeSchema('V1LocalObjectReference');
  assert.ok(first);
  first['description'] = 'changed';
  assert.notEqual(knownTypeSchema('V1LocalObjectReference')?.['description'], 'changed');
});

test('knownTypeSchema is undefined for a name it does not know', () => {
  assert.equal(knownTypeSchema('V1NoSuchType'), undefined);
  assert.ok(knownTypeNames().includes('Quantity'));
});

test('compacting known types loses nothing, and a field description survives', () => {
  const selector = { type: 'object', properties: { name: { type: 'string' } }, description: 'a selector' };
  const schemas = {
    Selector: selector,
    Holder: {
      type: 'object',
      properties: { ref: { ...selector, description: 'the field doc' }, plain: { type: 'string' } },
    },
  };
  const compact = compactKnownTypes(schemas);
  assert.deepEqual(compact['Holder']?.['properties'], {
    ref: { $known: 'Selector', description: 'the field doc' },
    plain: { type: 'string' },
  });
  assert.deepEqual(expandKnownType('Holder', compact), schemas.Holder);
  assert.deepEqual(expandKnownType('Selector', compact), selector);
});

test('hasKnownType tells known names from others without building a schema', () => {
  assert.equal(hasKnownType('V1PodTemplateSpec'), true);
  assert.equal(hasKnownType('V1NoSuchType'), false);
  assert.equal(hasKnownType('toString'), false);
});

test('knownTypeOutline gives the type and format a reference shows', () => {
  assert.deepEqual(knownTypeOutline('V1PodTemplateSpec'), { type: 'object' });
  assert.deepEqual(knownTypeOutline('Time'), { type: 'string', format: 'date-time' });
  assert.deepEqual(knownTypeOutline('IntOrString'), {});
  assert.deepEqual(knownTypeOutline('V1NoSuchType'), {});
});

test('sharedKnownTypeSchema builds a type once and hands out the same frozen schema', () => {
  const first = sharedKnownTypeSchema('V1Toleration');
  assert.equal(sharedKnownTypeSchema('V1Toleration'), first);
  assert.ok(Object.isFrozen(first?.['properties']));
  assert.deepEqual(first, knownTypeSchema('V1Toleration'));
  assert.equal(sharedKnownTypeSchema('V1NoSuchType'), undefined);
});
