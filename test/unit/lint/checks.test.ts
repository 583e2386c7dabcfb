import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lintApi, lintChecks } from '../../../src/lint/index.ts';
import type { LintConfig } from '../../../src/lint/index.ts';

/*
 * Each check over its fixture project (fixtures/lint/<check>): every finding stands in
 * fail.types.ts at the line:col below, with that check's name, and pass.types.ts has none.
 */
const FIXTURES = new URL('../../../fixtures/lint', import.meta.url).pathname;

const CONFLICTS = {
  conflicts: [
    {
      name: 'default_vs_required',
      sets: [['kubebuilder:default'], ['required']],
      description: 'A field with a default value cannot be required',
    },
  ],
};

/** Where each check must report in its fail fixture, as `line:col severity`. */
const EXPECTED: Readonly<Record<string, readonly string[]>> = {
  commentstart: ['3:3 error', '6:3 error', '8:3 error'],
  conditions: ['9:3 error', '9:3 warning', '15:3 error'],
  conflictingmarkers: ['5:3 error'],
  duplicatemarkers: ['7:6 error', '11:6 error', '18:6 error'],
  integers: ['5:3 error', '8:3 error'],
  jsontags: ['3:3 error', '6:3 error'],
  maxlength: ['5:3 error', '10:3 error', '16:3 error', '16:3 error', '21:3 error'],
  nobools: ['3:3 error'],
  nodurations: ['5:3 error'],
  nofloats: ['6:3 error', '9:3 error', '12:3 error'],
  nophase: ['3:3 error', '6:3 error'],
  notimestamp: ['5:3 error'],
  optionalfields: ['4:3 error'],
  optionalorrequired: ['3:3 error', '8:3 error', '10:6 error', '16:3 error'],
  requiredfields: ['4:3 error'],
  ssatags: ['8:3 error', '10:6 warning', '14:6 error', '19:6 error', '23:6 error', '28:6 error'],
  statusoptional: ['5:3 error', '9:3 error', '23:3 error'],
  statussubresource: ['5:18 error', '16:18 error'],
  uniquemarkers: ['3:6 error', '8:6 error', '13:6 error', '23:6 error', '30:6 error'],
};

/** Only `check`, as `linters: {disable: ['*'], enable: [check]}` runs it. */
function only(check: string): LintConfig {
  const lintersConfig = check === 'conflictingmarkers' ? { conflictingmarkers: CONFLICTS } : {};
  return { enable: [check], disable: ['*'], lintersConfig, source: '' };
}

describe('lint checks, each on a failing and a passing fixture', () => {
  it('every check has a fixture', () => {
    assert.deepEqual(Object.keys(EXPECTED).sort(), lintChecks.map((check) => check.name).sort());
  });

  for (const [check, expected] of Object.entries(EXPECTED)) {
    it(`${check}: reports fail.types.ts where expected, nothing in pass.types.ts`, () => {
      const { findings } = lintApi(join(FIXTURES, check), only(check));
      const fail = 'src/api/v1/fail.types.ts';
      assert.deepEqual(
        findings.filter((f) => f.location.file !== fail).map((f) => `${f.location.file}: ${f.message}`),
        [],
      );
      assert.deepEqual(
        findings.map((f) => `${f.location.line}:${f.location.column} ${f.severity}`),
        expected,
      );
      for (const finding of findings) {
        assert.equal(finding.check, check);
        assert.notEqual(finding.fix, '');
      }
    });
  }
});

describe('lint checks skip a field marked +kubebuilder:validation:Schemaless, as kube-api-linter does', () => {
  it('every check on: only the unmarked field is reported, and conditions, which walks every field there too', () => {
    const config = {
      enable: ['*'],
      disable: [],
      lintersConfig: { conflictingmarkers: CONFLICTS },
      source: '',
    };
    const { findings } = lintApi(join(FIXTURES, 'schemaless'), config);
    assert.deepEqual(
      findings.map((f) => `${f.location.line}:${f.location.column} ${f.check}`),
      ['23:3 maxlength', '26:3 conditions'],
    );
  });
});

describe('lint check settings', () => {
  const run = (check: string, settings: Readonly<Record<string, unknown>>) =>
    lintApi(join(FIXTURES, check), { ...only(check), lintersConfig: { [check]: settings } }).findings;

  it('conditions isFirstField: Ignore drops the warning', () => {
    assert.deepEqual(
      run('conditions', { isFirstField: 'Ignore' }).map((f) => f.severity),
      ['error', 'error'],
    );
  });

  it('requiredfields policy: Warn makes its findings warnings', () => {
    assert.deepEqual(
      run('requiredfields', { policy: 'Warn' }).map((f) => f.severity),
      ['warning'],
    );
  });

  it('ssatags listTypeSetUsage: Ignore says nothing of a set of objects', () => {
    assert.equal(run('ssatags', { listTypeSetUsage: 'Ignore' }).length, 5);
  });

  it('optionalorrequired prefers the marker its settings name', () => {
    const findings = run('optionalorrequired', {
      preferredOptionalMarker: 'kubebuilder:validation:Optional',
    });
    assert.deepEqual(
      findings.map((f) => `${f.location.line} ${f.message}`),
      [
        '3 field FailSpec.name must be marked as kubebuilder:validation:Optional or required',
        '8 field FailSpec.both must not be marked as both optional and required',
        '16 field FailSpec.declarative must be marked as kubebuilder:validation:Optional or required',
        '9 field PassSpec.title should use marker +kubebuilder:validation:Optional instead of +optional',
      ],
    );
  });

  it('optionalorrequired questionMarkIsOptional: false wants a marker on `x?:` too', () => {
    const findings = lintApi(join(FIXTURES, 'optionalorrequired'), {
      ...only('optionalorrequired'),
      lintersConfig: { optionalorrequired: { questionMarkIsOptional: false } },
    }).findings;
    assert.ok(findings.some((f) => f.location.file.endsWith('pass.types.ts') && f.location.line === 7));
  });

  it('statusoptional takes the preferred markers kube-api-linter takes, +k8s:optional too', () => {
    const [first] = run('statusoptional', { preferredOptionalMarker: 'k8s:optional' });
    assert.match(first?.fix ?? '', /`\/\/ \+k8s:optional`/);
  });

  it('jsontags takes its own pattern', () => {
    assert.equal(run('jsontags', { jsonTagRegex: '^[A-Za-z-]+$' }).length, 0);
  });

  it('uniquemarkers counts a custom marker by its attributes', () => {
    const findings = run('uniquemarkers', {
      customMarkers: [{ identifier: 'kubebuilder:validation:XValidation', attributes: ['message'] }],
    });
    assert.equal(findings.filter((f) => f.location.line === 8).length, 1);
  });

  it('a setting a check does not have, or a value it does not take, fails with its path', () => {
    assert.throws(
      () => run('ssatags', { listTypeSet: 'Warn' }),
      /lintersConfig\.ssatags has no setting "listTypeSet"/,
    );
    assert.throws(
      () => run('conditions', { isFirstField: 'warn' }),
      /lintersConfig\.conditions\.isFirstField must be one of Warn, Ignore; found "warn"/,
    );
  });

  it("kube-api-linter's Go-only settings are accepted, each noted as ignored", () => {
    const lint = (check: string, settings: Readonly<Record<string, unknown>>) =>
      lintApi(join(FIXTURES, check), { ...only(check), lintersConfig: { [check]: settings } });
    const conditions = lint('conditions', {
      isFirstField: 'Ignore',
      usePatchStrategy: 'Ignore',
      useProtobuf: 'Ignore',
    });
    assert.deepEqual(
      conditions.findings.map((f) => f.severity),
      ['error', 'error'],
    );
    assert.deepEqual(conditions.notes, [
      'conditions.useProtobuf has no meaning for TypeScript types; ignored',
      'conditions.usePatchStrategy has no meaning for TypeScript types; ignored',
    ]);
    const optional = lint('optionalfields', {
      pointers: { preference: 'WhenRequired', policy: 'Warn' },
      omitempty: { policy: 'Ignore' },
      omitzero: { policy: 'Forbid' },
    });
    assert.equal(optional.findings.length, 1);
    assert.deepEqual(optional.notes, [
      'optionalfields.pointers.preference has no meaning for TypeScript types; ignored',
      'optionalfields.pointers.policy has no meaning for TypeScript types; ignored',
      'optionalfields.omitempty.policy has no meaning for TypeScript types; ignored',
      'optionalfields.omitzero.policy has no meaning for TypeScript types; ignored',
    ]);
    assert.deepEqual(lint('requiredfields', { pointers: { policy: 'SuggestFix' } }).notes, [
      'requiredfields.pointers.policy has no meaning for TypeScript types; ignored',
    ]);
    assert.deepEqual(lint('jsontags', { fieldNameMatch: 'Warn' }).notes, [
      'jsontags.fieldNameMatch has no meaning for TypeScript types; ignored',
    ]);
  });

  it('a Go-only setting takes the values and keys kube-api-linter takes', () => {
    assert.throws(
      () => run('conditions', { useProtobuf: 'ignore' }),
      /lintersConfig\.conditions\.useProtobuf must be one of SuggestFix, Warn, Ignore, Forbid; found "ignore"/,
    );
    assert.throws(
      () => run('optionalfields', { pointers: { prefrence: 'Always' } }),
      /lintersConfig\.optionalfields\.pointers has no setting "prefrence"/,
    );
    assert.throws(
      () => run('requiredfields', { pointers: { preference: 'Always' } }),
      /lintersConfig\.requiredfields\.pointers has no setting "preference"/,
    );
    assert.throws(
      () => run('optionalfields', { pointers: 'Always' }),
      /lintersConfig\.optionalfields\.pointers must be a map of settings/,
    );
  });

  it('a kube-api-linter check tsoperator does not have: enabling it fails, disabling it passes, its settings are noted', () => {
    const root = join(FIXTURES, 'nobools');
    assert.throws(
      () => lintApi(root, { ...only('nobools'), enable: ['nobools', 'nomaps'] }),
      /linters\.enable: tsoperator does not have kube-api-linter's check "nomaps" yet/,
    );
    const result = lintApi(root, {
      ...only('nobools'),
      disable: ['nomaps', 'defaults'],
      lintersConfig: { nomaps: { policy: 'Enforce' } },
    });
    assert.deepEqual(
      result.findings.map((f) => f.check),
      ['nobools'],
    );
    assert.deepEqual(result.notes, [
      'lintersConfig.nomaps: tsoperator does not have the check nomaps yet; its settings are ignored',
    ]);
  });

  it('conflictingmarkers enabled without conflicts says so', () => {
    assert.throws(() => run('conflictingmarkers', {}), /lists no conflicts/);
  });

  it('conflictingmarkers and uniquemarkers refuse a marker tsoperator does not parse: it would never match', () => {
    const typo = { name: 'typo', sets: [['optional'], ['kubebuilder:validation:Maximun']] };
    assert.throws(
      () => run('conflictingmarkers', { conflicts: [typo] }),
      /does not know the marker "kubebuilder:validation:Maximun"/,
    );
    assert.throws(
      () => run('uniquemarkers', { customMarkers: [{ identifier: 'example:single' }] }),
      /does not know the marker "example:single"/,
    );
  });
});
