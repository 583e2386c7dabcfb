import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMarkerRegistry, parseMarker } from '../../../src/markers/index.ts';
import type { MarkerTarget } from '../../../src/markers/index.ts';

const registry = createMarkerRegistry();

function value(text: string, target: MarkerTarget = 'field'): unknown {
  const result = parseMarker(text, target, registry);
  assert.equal(result.kind, 'parsed', JSON.stringify(result));
  return result.value;
}

function failure(
  text: string,
  target: MarkerTarget = 'field',
): { code: string; message: string; offset: number } {
  const result = parseMarker(text, target, registry);
  assert.equal(result.kind, 'error', JSON.stringify(result));
  return result;
}

describe('parseMarker', () => {
  it('parses numbers, negative numbers and floats', () => {
    assert.equal(value('kubebuilder:validation:Minimum=-5'), -5);
    assert.equal(value('kubebuilder:validation:MultipleOf=0.5'), 0.5);
    assert.equal(value('kubebuilder:validation:MaxLength=64'), 64);
  });

  it('parses quoted, backtick and bare strings', () => {
    assert.equal(value('kubebuilder:validation:Pattern=`^[a-z]+$`'), '^[a-z]+$');
    assert.equal(value('kubebuilder:validation:Pattern="^a\\\\.b$"'), '^a\\.b$');
    assert.equal(value('kubebuilder:validation:Format=date-time'), 'date-time');
  });

  it('guesses the types of enum values, in both list forms', () => {
    assert.deepEqual(value('kubebuilder:validation:Enum=A;B;"C D"'), ['A', 'B', 'C D']);
    assert.deepEqual(value('kubebuilder:validation:Enum={1,2,3}'), [1, 2, 3]);
    assert.deepEqual(value('kubebuilder:validation:Enum=true;false'), [true, false]);
  });

  it('guesses default values: scalars, lists and maps', () => {
    assert.equal(value('kubebuilder:default=3'), 3);
    assert.equal(value('kubebuilder:default=fast'), 'fast');
    assert.deepEqual(value('kubebuilder:default={a,b}'), ['a', 'b']);
    assert.deepEqual(value('kubebuilder:default={mode: "x", n: 2}'), { mode: 'x', n: 2 });
    assert.deepEqual(value('kubebuilder:default={}'), {});
    assert.deepEqual(value('default={"a": [1]}'), { a: [1] });
  });

  it('parses named arguments with the first one written in the name', () => {
    assert.deepEqual(
      value('kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.ready`', 'type'),
      {
        name: 'Ready',
        type: 'string',
        JSONPath: '.status.ready',
      },
    );
    assert.deepEqual(value('kubebuilder:resource:scope=Cluster,shortName=wa;web', 'type'), {
      scope: 'Cluster',
      shortName: ['wa', 'web'],
    });
  });

  it('parses CEL rules with commas and quotes inside', () => {
    const parsed = value(
      `kubebuilder:validation:XValidation:rule="self.min <= self.max",message="min, then max",reason=FieldValueInvalid`,
      'type',
    );
    assert.deepEqual(parsed, {
      rule: 'self.min <= self.max',
      message: 'min, then max',
      reason: 'FieldValueInvalid',
    });
  });

  it('gives flags the value true and defaulted arguments their default', () => {
    assert.equal(value('kubebuilder:subresource:status', 'type'), true);
    assert.equal(value('kubebuilder:object:root', 'type'), true);
  });

  it('reports unknown arguments with their offset', () => {
    const error = failure('kubebuilder:printcolumn:name=a,type=string,JSONPath=.x,colour=red', 'type');
    assert.equal(error.code, 'TSOP1002');
    assert.match(error.message, /unknown argument "colour"/);
    assert.equal(error.offset, 'kubebuilder:printcolumn:name=a,type=string,JSONPath=.x,'.length);
  });

  it('reports values of the wrong type', () => {
    const error = failure('kubebuilder:validation:MaxLength=ten');
    assert.equal(error.code, 'TSOP1003');
    assert.match(error.message, /want int/);
  });

  it('reports missing required arguments', () => {
    const error = failure('kubebuilder:printcolumn:name=a,type=string', 'type');
    assert.equal(error.code, 'TSOP1004');
    assert.match(error.message, /missing argument "JSONPath"/);
  });

  it('reports arguments given to a flag', () => {
    assert.equal(failure('kubebuilder:subresource:status=yes', 'type').code, 'TSOP1006');
  });

  it('tells unknown names from names known at another target', () => {
    assert.deepEqual(parseMarker('kubebuilder:subresource:status', 'field', registry), {
      kind: 'unknown',
      name: 'kubebuilder:subresource:status',
      knownTargets: ['type'],
    });
    assert.equal(parseMarker('kubebuilder:validation:Minimun=1', 'field', registry).kind, 'unknown');
  });
});
