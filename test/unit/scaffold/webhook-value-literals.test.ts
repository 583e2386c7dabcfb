import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ValueShape } from '../../../src/scaffold/webhook/kind-shape.ts';
import { literal, member, sampleLiteral, zeroLiteral } from '../../../src/scaffold/webhook/value-literals.ts';

const STRING: ValueShape = { kind: 'string' };
const INTEGER: ValueShape = { kind: 'integer' };

describe('samples the CRD admits', () => {
  it('a string within its lengths, none under a pattern or a format', () => {
    assert.equal(sampleLiteral(STRING, {}), "'example'");
    assert.equal(sampleLiteral(STRING, { minLength: 10 }), "'examplexxx'");
    assert.equal(sampleLiteral(STRING, { maxLength: 3 }), "'exa'");
    assert.equal(sampleLiteral(STRING, { pattern: '^a' }), undefined);
    assert.equal(sampleLiteral(STRING, { format: 'email' }), undefined);
    assert.equal(
      sampleLiteral(STRING, { 'x-kubernetes-validations': [{ rule: 'self.size() > 2' }] }),
      undefined,
    );
  });

  it('a number within its bounds, exclusive ones too', () => {
    assert.equal(sampleLiteral(INTEGER, {}), '1');
    assert.equal(sampleLiteral(INTEGER, { minimum: 5 }), '5');
    assert.equal(sampleLiteral(INTEGER, { minimum: 5, exclusiveMinimum: true }), '6');
    assert.equal(sampleLiteral(INTEGER, { maximum: 0 }), '0');
    assert.equal(sampleLiteral(INTEGER, { maximum: 0, exclusiveMaximum: true }), '-1');
    assert.equal(sampleLiteral(INTEGER, { minimum: 3, maximum: 2 }), undefined);
    assert.equal(sampleLiteral(INTEGER, { multipleOf: 5 }), undefined);
  });

  it("the schema's default or first enum value before anything else", () => {
    assert.equal(sampleLiteral(STRING, { default: 'nginx:1.27', minLength: 20 }), "'nginx:1.27'");
    assert.equal(sampleLiteral({ kind: 'enum', values: ['A', 'B'] }, {}), "'A'");
    assert.equal(sampleLiteral(STRING, { enum: ['x', 'y'] }), "'x'");
  });

  it("an object's required fields, in TypeScript's eyes or the schema's, with overrides", () => {
    const shape: ValueShape = {
      kind: 'object',
      fields: [
        { name: 'name', optional: false, type: STRING, schema: {} },
        { name: 'size', optional: true, type: INTEGER, schema: { minimum: 2 } },
        { name: 'zone-id', optional: true, type: STRING, schema: {} },
      ],
    };
    assert.equal(sampleLiteral(shape, {}), "{ name: 'example' }");
    assert.equal(sampleLiteral(shape, { required: ['name', 'size'] }), "{ name: 'example', size: 2 }");
    assert.equal(sampleLiteral(shape, {}, { name: "''", 'zone-id': "'a'" }), "{ name: '', 'zone-id': 'a' }");
    assert.equal(sampleLiteral(shape, { minProperties: 2 }), undefined);
  });
});

describe('zero values and source text', () => {
  it("Go's zero value, or the CRD default when there is one", () => {
    assert.equal(zeroLiteral(STRING, {}), "''");
    assert.equal(zeroLiteral(INTEGER, { default: 8080 }), '8080');
    assert.equal(zeroLiteral({ kind: 'nullable', inner: STRING }, {}), 'null');
    assert.equal(zeroLiteral({ kind: 'opaque', name: 'Quantity' }, {}), "'0'");
    assert.equal(zeroLiteral({ kind: 'opaque', name: 'V1PodSpec' }, {}), undefined);
  });

  it('strings in single quotes, escaped; names that are not identifiers in brackets', () => {
    assert.equal(literal(`it's "x"`), `'it\\'s "x"'`);
    assert.equal(literal({ a: [1, 'b'], 'c-d': {} }), "{ a: [1, 'b'], 'c-d': {} }");
    assert.equal(member('app', 'spec'), 'app.spec');
    assert.equal(member('app.spec', 'zone-id', true), "app.spec?.['zone-id']");
  });
});
