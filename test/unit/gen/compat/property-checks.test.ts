import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../src/gen/crd/json-schema-props.ts';
import {
  compareCrds,
  defaultCompatConfig,
  parseCompatConfig,
  type CompatConfig,
} from '../../../../src/gen/compat/index.ts';
import { fieldCrd, specSchema, testCrd } from '../../../support/test-crd.ts';

/*
 * Each property check of crdify, on pairs of schemas for `spec.field`: a change it must report
 * (with crdify's name and message) and changes it must let pass.
 */
interface Case {
  readonly title: string;
  readonly old: JSONSchemaProps;
  readonly next: JSONSchemaProps;
  /** `check: message`, or undefined when nothing may be reported. */
  readonly expect?: string;
  readonly config?: string;
}

const str: JSONSchemaProps = { type: 'string' };
const int: JSONSchemaProps = { type: 'integer' };
const list: JSONSchemaProps = { type: 'array', items: str };
const map: JSONSchemaProps = { type: 'object', additionalProperties: str };

const cases: readonly Case[] = [
  {
    title: 'enum added',
    old: str,
    next: { ...str, enum: ['a'] },
    expect: 'enum: enum constraint added when there was none previously: ["a"]',
  },
  {
    title: 'enum value removed',
    old: { ...str, enum: ['a', 'b'] },
    next: { ...str, enum: ['a'] },
    expect: 'enum: allowed enum values removed: ["b"]',
  },
  {
    title: 'enum value added',
    old: { ...str, enum: ['a'] },
    next: { ...str, enum: ['a', 'b'] },
    expect: 'enum: allowed enum values added: ["b"]',
  },
  {
    title: 'enum value added, additionPolicy: Allow',
    old: { ...str, enum: ['a'] },
    next: { ...str, enum: ['a', 'b'] },
    config: 'validations: [{ name: enum, enforcement: Error, configuration: { additionPolicy: Allow } }]',
  },
  { title: 'enum values reordered', old: { ...str, enum: ['a', 'b'] }, next: { ...str, enum: ['b', 'a'] } },
  {
    title: 'enum removed',
    old: { ...str, enum: ['a'] },
    next: str,
    expect: 'enum: allowed enum values removed: ["a"]',
  },
  {
    title: 'default added',
    old: str,
    next: { ...str, default: 'x' },
    expect: 'default: default added when there was none previously: "x"',
  },
  {
    title: 'default changed',
    old: { ...str, default: 'x' },
    next: { ...str, default: 'y' },
    expect: 'default: default value changed: "x" -> "y"',
  },
  {
    title: 'default removed',
    old: { ...str, default: 'x' },
    next: str,
    expect: 'default: default value removed: "x"',
  },
  {
    title: 'object default unchanged',
    old: { type: 'object', default: { a: 1, b: 2 } },
    next: { type: 'object', default: { b: 2, a: 1 } },
  },
  {
    title: 'maximum added',
    old: int,
    next: { ...int, maximum: 5 },
    expect: 'maximum: maximum constraint added when there was none previously: 5',
  },
  {
    title: 'maximum decreased',
    old: { ...int, maximum: 10 },
    next: { ...int, maximum: 5 },
    expect: 'maximum: maximum decreased: 10 -> 5',
  },
  { title: 'maximum increased', old: { ...int, maximum: 10 }, next: { ...int, maximum: 20 } },
  { title: 'maximum removed', old: { ...int, maximum: 10 }, next: int },
  {
    title: 'minimum added',
    old: int,
    next: { ...int, minimum: 1 },
    expect: 'minimum: minimum constraint added when there was none previously: 1',
  },
  {
    title: 'minimum increased',
    old: { ...int, minimum: 1 },
    next: { ...int, minimum: 2 },
    expect: 'minimum: minimum increased: 1 -> 2',
  },
  { title: 'minimum decreased', old: { ...int, minimum: 2 }, next: { ...int, minimum: 0 } },
  {
    title: 'maxLength added',
    old: str,
    next: { ...str, maxLength: 63 },
    expect: 'maxLength: maximum constraint added when there was none previously: 63',
  },
  {
    title: 'maxLength decreased',
    old: { ...str, maxLength: 63 },
    next: { ...str, maxLength: 10 },
    expect: 'maxLength: maximum decreased: 63 -> 10',
  },
  { title: 'maxLength increased', old: { ...str, maxLength: 10 }, next: { ...str, maxLength: 63 } },
  {
    title: 'minLength added',
    old: str,
    next: { ...str, minLength: 1 },
    expect: 'minLength: minimum constraint added when there was none previously: 1',
  },
  {
    title: 'minLength increased',
    old: { ...str, minLength: 1 },
    next: { ...str, minLength: 3 },
    expect: 'minLength: minimum increased: 1 -> 3',
  },
  { title: 'minLength decreased', old: { ...str, minLength: 3 }, next: { ...str, minLength: 1 } },
  {
    title: 'maxItems added',
    old: list,
    next: { ...list, maxItems: 3 },
    expect: 'maxItems: maximum constraint added when there was none previously: 3',
  },
  {
    title: 'maxItems decreased',
    old: { ...list, maxItems: 3 },
    next: { ...list, maxItems: 2 },
    expect: 'maxItems: maximum decreased: 3 -> 2',
  },
  { title: 'maxItems increased', old: { ...list, maxItems: 3 }, next: { ...list, maxItems: 4 } },
  {
    title: 'minItems added',
    old: list,
    next: { ...list, minItems: 1 },
    expect: 'minItems: minimum constraint added when there was none previously: 1',
  },
  {
    title: 'minItems increased',
    old: { ...list, minItems: 1 },
    next: { ...list, minItems: 2 },
    expect: 'minItems: minimum increased: 1 -> 2',
  },
  { title: 'minItems decreased', old: { ...list, minItems: 2 }, next: { ...list, minItems: 1 } },
  {
    title: 'maxProperties added',
    old: map,
    next: { ...map, maxProperties: 8 },
    expect: 'maxProperties: maximum constraint added when there was none previously: 8',
  },
  {
    title: 'maxProperties decreased',
    old: { ...map, maxProperties: 8 },
    next: { ...map, maxProperties: 4 },
    expect: 'maxProperties: maximum decreased: 8 -> 4',
  },
  { title: 'maxProperties increased', old: { ...map, maxProperties: 4 }, next: { ...map, maxProperties: 8 } },
  {
    title: 'minProperties added',
    old: map,
    next: { ...map, minProperties: 1 },
    expect: 'minProperties: minimum constraint added when there was none previously: 1',
  },
  {
    title: 'minProperties increased',
    old: { ...map, minProperties: 1 },
    next: { ...map, minProperties: 2 },
    expect: 'minProperties: minimum increased: 1 -> 2',
  },
  { title: 'minProperties decreased', old: { ...map, minProperties: 2 }, next: { ...map, minProperties: 1 } },
  { title: 'type changed', old: str, next: int, expect: 'type: type changed: "string" -> "integer"' },
  {
    title: 'pattern added',
    old: str,
    next: { ...str, pattern: '^a' },
    expect: 'pattern: pattern added: "" -> "^a"',
  },
  {
    title: 'pattern changed',
    old: { ...str, pattern: '^a' },
    next: { ...str, pattern: '^b' },
    expect: 'pattern: pattern changed: "^a" -> "^b"',
  },
  {
    title: 'pattern removed',
    old: { ...str, pattern: '^a' },
    next: str,
    expect: 'pattern: pattern removed: "^a" -> ""',
  },
  {
    title: 'pattern removed, removalPolicy: Allow',
    old: { ...str, pattern: '^a' },
    next: str,
    config: 'validations: [{ name: pattern, enforcement: Error, configuration: { removalPolicy: Allow } }]',
  },
  {
    title: 'nullable added',
    old: str,
    next: { ...str, nullable: true },
    expect: 'nullable: nullable added: false -> true',
  },
  {
    title: 'nullable removed',
    old: { ...str, nullable: true },
    next: str,
    expect: 'nullable: nullable removed: true -> false',
  },
  {
    title: 'nullable added and removed, both allowed',
    old: { ...str, nullable: true },
    next: str,
    config:
      'validations: [{ name: nullable, enforcement: Error, configuration: { additionPolicy: Allow, removalPolicy: Allow } }]',
  },
  {
    title: 'description changed: off by default',
    old: { ...str, description: 'A.' },
    next: { ...str, description: 'B.' },
  },
  {
    title: 'description changed, enforced',
    old: { ...str, description: 'A.' },
    next: { ...str, description: 'B.' },
    config: 'validations: [{ name: description, enforcement: Error }]',
    expect: 'description: description changed: "A." -> "B."',
  },
  {
    title: 'a CEL rule added: no check judges it, so it fails closed',
    old: str,
    next: { ...str, 'x-kubernetes-validations': [{ rule: 'self != ""' }] },
    expect:
      'unhandled: unhandled changes found: x-kubernetes-validations: (none) -> [{"rule":"self != \\"\\""}]',
  },
  {
    title: 'a CEL rule added, unhandledEnforcement: None',
    old: str,
    next: { ...str, 'x-kubernetes-validations': [{ rule: 'self != ""' }] },
    config: 'unhandledEnforcement: None',
  },
  {
    title: 'format changed',
    old: str,
    next: { ...str, format: 'date-time' },
    expect: 'unhandled: unhandled changes found: format: (none) -> "date-time"',
  },
  { title: 'a new optional field next to it', old: str, next: str },
];

function config(text: string | undefined): CompatConfig {
  return text === undefined ? defaultCompatConfig() : parseCompatConfig(text, 'crdify.yaml');
}

describe('property checks, one schema node against its baseline', () => {
  for (const c of cases) {
    it(`${c.title}: ${c.expect ?? 'nothing reported'}`, () => {
      const findings = compareCrds(fieldCrd(c.old), fieldCrd(c.next), config(c.config), false);
      const reported = findings.map((f) => `${f.check}: ${f.message}`);
      assert.deepEqual(reported, c.expect === undefined ? [] : [c.expect]);
      for (const f of findings)
        assert.deepEqual([f.version, f.path, f.severity], ['v1', '^.spec.field', 'error']);
    });
  }

  it('Warn enforcement reports a warning', () => {
    const warn = config('validations: [{ name: maximum, enforcement: Warn }]');
    const [finding] = compareCrds(
      fieldCrd({ ...int, maximum: 10 }),
      fieldCrd({ ...int, maximum: 5 }),
      warn,
      false,
    );
    assert.equal(finding?.severity, 'warning');
  });

  it('None enforcement reports nothing, and the change is still handled', () => {
    const none = config('validations: [{ name: maximum, enforcement: None }]');
    assert.deepEqual(
      compareCrds(fieldCrd({ ...int, maximum: 10 }), fieldCrd({ ...int, maximum: 5 }), none, false),
      [],
    );
  });

  it('checks nodes inside lists and maps, at their own paths', () => {
    const old = fieldCrd({ type: 'array', items: { ...int, maximum: 10 } });
    const next = fieldCrd({ type: 'array', items: { ...int, maximum: 5 } });
    assert.deepEqual(
      compareCrds(old, next, defaultCompatConfig(), false).map((f) => `${f.path} ${f.check}`),
      ['^.spec.field.items maximum'],
    );
  });
});

describe('allOf, anyOf and additionalProperties added to an existing node', () => {
  const check = (old: JSONSchemaProps, next: JSONSchemaProps): string[] =>
    compareCrds(fieldCrd(old), fieldCrd(next), defaultCompatConfig(), false).map(
      (f) => `${f.path} ${f.check}: ${f.message}`,
    );

  it('judges a new allOf or anyOf entry as a constraint on the values the node has', () => {
    assert.deepEqual(check(str, { ...str, allOf: [{ maxLength: 3 }] }), [
      '^.spec.field.allOf[0] maxLength: maximum constraint added when there was none previously: 3',
    ]);
    const fields = { a: str, b: str };
    assert.deepEqual(
      check(
        { type: 'object', properties: fields },
        { type: 'object', properties: fields, anyOf: [{ required: ['a'] }, { required: ['b'] }] },
      ),
      [
        '^.spec.field.anyOf[0] required: new required fields: [a]',
        '^.spec.field.anyOf[1] required: new required fields: [b]',
      ],
    );
  });

  it('judges a new additionalProperties schema of an existing object', () => {
    const free: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    assert.deepEqual(check(free, { ...free, additionalProperties: int }), [
      '^.spec.field.additionalProperties type: type changed: "" -> "integer"',
    ]);
  });

  it('lets the anyOf of a new field pass', () => {
    const old: JSONSchemaProps = { type: 'object', properties: {} };
    const intOrString: JSONSchemaProps = { 'x-kubernetes-int-or-string': true, anyOf: [int, str] };
    assert.deepEqual(check(old, { type: 'object', properties: { port: intOrString } }), []);
  });
});

describe('required', () => {
  const check = (old: JSONSchemaProps, next: JSONSchemaProps): string[] =>
    compareCrds(
      testCrd([{ name: 'v1', schema: old }]),
      testCrd([{ name: 'v1', schema: next }]),
      defaultCompatConfig(),
      false,
    ).map((f) => `${f.path} ${f.check}: ${f.message}`);

  it('reports an existing field that becomes required', () => {
    assert.deepEqual(check(specSchema({ size: int }), specSchema({ size: int }, ['size'])), [
      '^.spec required: new required fields: [size]',
    ]);
  });

  it('reports a new field that is required', () => {
    assert.deepEqual(check(specSchema({}), specSchema({ size: int }, ['size'])), [
      '^.spec required: new required fields: [size]',
    ]);
  });

  it('lets a required field become optional', () => {
    assert.deepEqual(check(specSchema({ size: int }, ['size']), specSchema({ size: int })), []);
  });

  it('does not report a required field of a new optional parent: no stored object has the parent', () => {
    const nested: JSONSchemaProps = { type: 'object', properties: { test: str }, required: ['test'] };
    assert.deepEqual(check(specSchema({ size: int }), specSchema({ size: int, nested })), []);
  });

  it('reports a new parent that is itself required', () => {
    const nested: JSONSchemaProps = { type: 'object', properties: { test: str }, required: ['test'] };
    assert.deepEqual(check(specSchema({ size: int }), specSchema({ size: int, nested }, ['nested'])), [
      '^.spec required: new required fields: [nested]',
    ]);
  });
});
