import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  validateDomain,
  validateGroup,
  validateKind,
  validatePlural,
  validateProjectName,
  validateQualifiedGroup,
  validateVersion,
} from '../../../src/project/name-rules.ts';
import { usageErrorMatching } from '../../support/usage-error.ts';

test('valid names pass', () => {
  validateDomain('example.org');
  validateGroup('demo');
  validateGroup('');
  validateGroup('batch.ops');
  validateQualifiedGroup('demo.example.org');
  validateVersion('v1beta1');
  validateKind('WebApp');
  validateKind('V1Thing');
  validatePlural('webapps');
  validateProjectName('webapp-operator');
});

test('a domain must be a DNS-1123 subdomain', () => {
  assert.throws(
    () => validateDomain('Example.org'),
    usageErrorMatching(/^invalid domain "Example\.org": it must consist of lower-case/),
  );
  assert.throws(() => validateDomain('example..org'), usageErrorMatching(/each dot-separated part/));
  assert.throws(
    () => validateDomain(`${'a'.repeat(250)}.org`),
    usageErrorMatching(/no more than 253 characters/),
  );
});

test('a group must be a DNS-1123 subdomain', () => {
  assert.throws(
    () => validateGroup('Demo'),
    usageErrorMatching(/^invalid group "Demo": .*\(expected a DNS-1123 subdomain/),
  );
  assert.throws(() => validateGroup('demo_x'), usageErrorMatching(/invalid group "demo_x"/));
  assert.throws(() => validateGroup('-demo'), usageErrorMatching(/start and end with a letter or digit/));
});

test('a group joined to the domain must stay a DNS-1123 subdomain', () => {
  assert.throws(
    () => validateQualifiedGroup(`${'demo'.repeat(70)}.example.org`),
    usageErrorMatching(/^invalid group with domain .*no more than 253 characters/),
  );
});

test('a version must be a DNS-1123 label', () => {
  assert.throws(
    () => validateVersion('V1'),
    usageErrorMatching(/^invalid version "V1": .*\(expected a DNS-1123 label, e\.g\. v1/),
  );
  assert.throws(() => validateVersion('v1.2'), usageErrorMatching(/invalid version "v1\.2"/));
  assert.throws(() => validateVersion(''), usageErrorMatching(/invalid version ""/));
  assert.throws(
    () => validateVersion(`v${'1'.repeat(63)}`),
    usageErrorMatching(/no more than 63 characters/),
  );
});

test('a kind must start with an upper-case letter', () => {
  assert.throws(
    () => validateKind('webApp'),
    usageErrorMatching(/^invalid kind "webApp": it must start with an upper-case letter/),
  );
});

test('a kind must be a DNS-1035 label once lower-cased', () => {
  assert.throws(
    () => validateKind('Web-App'),
    usageErrorMatching(/invalid kind "Web-App": .*letters and digits only/),
  );
  assert.throws(() => validateKind('Web_App'), usageErrorMatching(/invalid kind "Web_App"/));
  assert.throws(() => validateKind(`W${'a'.repeat(63)}`), usageErrorMatching(/no more than 63 characters/));
  assert.throws(() => validateKind('1App'), usageErrorMatching(/upper-case letter .*start with a letter/));
});

test('a plural must be a DNS-1035 label', () => {
  assert.throws(
    () => validatePlural('WebApps'),
    usageErrorMatching(/^invalid plural "WebApps": .*DNS-1035 label/),
  );
  assert.throws(() => validatePlural('1apps'), usageErrorMatching(/start with a letter/));
});

test('a project name must be a DNS-1123 label', () => {
  assert.throws(
    () => validateProjectName('My_Operator'),
    usageErrorMatching(/^invalid project name "My_Operator": .*\(expected a DNS-1123 label/),
  );
  assert.throws(() => validateProjectName('webapp.operator'), usageErrorMatching(/invalid project name/));
});
