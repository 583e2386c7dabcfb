import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalMarkerText,
  createMarkerRegistry,
  parseMarker,
  rbacMarkers,
  webhookMarkers,
} from '../../../src/markers/index.ts';
import type { MarkerParseResult, MarkerTarget } from '../../../src/markers/index.ts';

// controller-gen reads `+name:=value` as `+name=value`: `:=` introduces a marker's unnamed argument,
// as Kubebuilder's CronJob tutorial writes `+kubebuilder:default:=Allow`. Every marker that takes an
// unnamed argument (or none) reads both spellings alike; markers with named arguments refuse both.

const registry = createMarkerRegistry([
  rbacMarkers.rule,
  webhookMarkers.webhook,
  webhookMarkers.configuration,
]);

function parse(text: string, target: MarkerTarget): MarkerParseResult {
  return parseMarker(text, target, registry);
}

/** The value of `name=argument` and of `name:=argument`, asserted equal. */
function bothSpellings(name: string, argument: string, target: MarkerTarget = 'field'): unknown {
  const equals = parse(`${name}=${argument}`, target);
  const colonEquals = parse(`${name}:=${argument}`, target);
  assert.equal(equals.kind, 'parsed', JSON.stringify(equals));
  assert.deepEqual(colonEquals, equals);
  return equals.kind === 'parsed' ? equals.value : undefined;
}

function failure(text: string, target: MarkerTarget): { code: string; message: string; offset: number } {
  const result = parse(text, target);
  assert.equal(result.kind, 'error', JSON.stringify(result));
  return result;
}

describe('name:=value, the spelling of the unnamed argument Kubebuilder writes too', () => {
  it('reads defaults of every shape, as the CronJob tutorial writes them', () => {
    assert.equal(bothSpellings('kubebuilder:default', 'Allow'), 'Allow');
    assert.equal(bothSpellings('kubebuilder:default', '3'), 3);
    assert.equal(bothSpellings('kubebuilder:default', 'true'), true);
    assert.deepEqual(bothSpellings('kubebuilder:default', '{a,b}'), ['a', 'b']);
    assert.deepEqual(bothSpellings('kubebuilder:default', '{mode: "x", n: 2}'), { mode: 'x', n: 2 });
    assert.deepEqual(bothSpellings('kubebuilder:default', '{}'), {});
    assert.deepEqual(bothSpellings('default', '{"a": [1]}'), { a: [1] });
  });

  it('reads validation, example and list markers', () => {
    assert.equal(bothSpellings('kubebuilder:validation:Minimum', '1'), 1);
    assert.equal(bothSpellings('kubebuilder:validation:Maximum', '-2.5'), -2.5);
    assert.equal(bothSpellings('kubebuilder:validation:MaxItems', '3'), 3);
    assert.equal(bothSpellings('kubebuilder:validation:items:Minimum', '1'), 1);
    assert.deepEqual(bothSpellings('kubebuilder:validation:Enum', 'Allow;Forbid;Replace'), [
      'Allow',
      'Forbid',
      'Replace',
    ]);
    assert.equal(bothSpellings('kubebuilder:validation:Pattern', '`^[a-z]+$`'), '^[a-z]+$');
    assert.equal(bothSpellings('kubebuilder:example', '"safe"'), 'safe');
    assert.equal(bothSpellings('listType', 'set'), 'set');
    assert.equal(bothSpellings('k8s:maximum', '10'), 10);
    assert.equal(bothSpellings('kubebuilder:validation:Minimum', ' 1'), 1);
  });

  it('reads the markers of a type and of a package', () => {
    assert.equal(bothSpellings('kubebuilder:object:root', 'true', 'type'), true);
    assert.equal(bothSpellings('groupName', 'example.org', 'package'), 'example.org');
    assert.equal(bothSpellings('kubebuilder:title', 'Window', 'type'), 'Window');
  });

  it('reads a flag followed by an empty argument, and refuses a flag given a value', () => {
    assert.equal(bothSpellings('optional', ''), true);
    assert.equal(bothSpellings('kubebuilder:subresource:status', '', 'type'), true);
    const error = failure('optional:=true', 'field');
    assert.equal(error.code, 'TSOP1006');
    assert.match(error.message, /extra arguments provided: "true"/);
    assert.equal(error.offset, 'optional:='.length);
  });

  it('reports a bad value at its own offset in either spelling', () => {
    const error = failure('kubebuilder:validation:Minimum:=x', 'field');
    assert.equal(error.code, 'TSOP1003');
    assert.equal(error.offset, 'kubebuilder:validation:Minimum:='.length);
  });

  it('looks a misspelt or misplaced marker up without its colon', () => {
    assert.deepEqual(parse('kubebuilder:subresource:status:=', 'field'), {
      kind: 'unknown',
      name: 'kubebuilder:subresource:status',
      knownTargets: ['type'],
    });
    assert.deepEqual(parse('kubebuilder:defualt:=Allow', 'field'), {
      kind: 'unknown',
      name: 'kubebuilder:defualt',
      knownTargets: [],
    });
  });
});

describe('markers with named arguments take no unnamed one, as controller-gen refuses it', () => {
  const named: readonly [string, MarkerTarget][] = [
    ['kubebuilder:validation:XValidation', 'type'],
    ['kubebuilder:validation:XValidation', 'field'],
    ['kubebuilder:printcolumn', 'type'],
    ['kubebuilder:resource', 'type'],
    ['kubebuilder:rbac', 'package'],
    ['kubebuilder:webhook', 'package'],
  ];

  for (const [name, target] of named) {
    it(`refuses +${name}:= and +${name}= at the separator, naming the marker`, () => {
      for (const separator of [':=', '=']) {
        const error = failure(`${name}${separator}rule="self.a"`, target);
        assert.equal(error.code, 'TSOP1006');
        assert.match(error.message, new RegExp(`\\+${name} takes named arguments`));
        assert.equal(error.offset, name.length);
      }
    });
  }

  it('still reads the first named argument written after the name', () => {
    const parsed = parse('kubebuilder:validation:XValidation:rule="self.a",message="m"', 'field');
    assert.equal(parsed.kind, 'parsed');
  });
});

describe('a marker with an unnamed argument has no named one', () => {
  it('refuses a segment between the name and `=` instead of dropping or keeping it', () => {
    const error = failure('kubebuilder:default:foo=bar', 'field');
    assert.equal(error.code, 'TSOP1002');
    assert.match(error.message, /unknown argument "foo"/);
    assert.match(error.message, /\+kubebuilder:default=<value>/);
    assert.equal(error.offset, 'kubebuilder:default:'.length);
    assert.equal(failure('kubebuilder:validation:Minimum:foo=5', 'field').code, 'TSOP1002');
    assert.equal(failure('optional:foo=', 'field').code, 'TSOP1002');
  });
});

describe('canonicalMarkerText', () => {
  it('writes the name:=value spelling as name=value, and leaves others as written', () => {
    assert.equal(canonicalMarkerText('+kubebuilder:default:=Allow'), '+kubebuilder:default=Allow');
    assert.equal(canonicalMarkerText('+kubebuilder:default: =Allow'), '+kubebuilder:default=Allow');
    assert.equal(canonicalMarkerText('+kubebuilder:default={a:=b}'), '+kubebuilder:default={a:=b}');
    assert.equal(canonicalMarkerText('+optional'), '+optional');
    assert.equal(
      canonicalMarkerText('+kubebuilder:printcolumn:name=a,type=string'),
      '+kubebuilder:printcolumn:name=a,type=string',
    );
  });
});
