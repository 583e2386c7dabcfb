import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultCompatConfig, parseCompatConfig } from '../../../../src/gen/compat/index.ts';

/* The crdify config format: what it sets, its defaults, and the errors that say what to fix. */
const parse = (text: string) => parseCompatConfig(text, 'crdify.yaml');

describe('compatibility config', () => {
  it('defaults every check to error but description, and unhandled changes to error', () => {
    const config = defaultCompatConfig();
    const off = [...config.checks].filter(([, c]) => c.enforcement !== 'error').map(([name]) => name);
    assert.deepEqual(off, ['description']);
    assert.equal(config.unhandledEnforcement, 'error');
    assert.equal(config.conversion, 'None');
    assert.equal(config.checks.size, 19);
    assert.equal(config.checks.get('crdRemoval')?.enforcement, 'error');
  });

  it("reads crdify's own example config", () => {
    const config = parse(`
validations:
  - name: default
    enforcement: Error
  - name: enum
    enforcement: Error
    configuration:
      additionPolicy: Allow
  - name: pattern
    enforcement: Warn
    configuration:
      removalPolicy: Allow
  - name: nullable
    enforcement: None
unhandledEnforcement: Warn
conversion: Ignore
`);
    assert.deepEqual(config.checks.get('enum'), {
      enforcement: 'error',
      options: { additionPolicy: 'Allow' },
    });
    assert.deepEqual(config.checks.get('pattern'), {
      enforcement: 'warn',
      options: { removalPolicy: 'Allow' },
    });
    assert.deepEqual(config.checks.get('nullable'), {
      enforcement: 'off',
      options: { additionPolicy: 'Disallow', removalPolicy: 'Disallow' },
    });
    assert.equal(config.checks.get('maximum')?.enforcement, 'error');
    assert.equal(config.unhandledEnforcement, 'warn');
    assert.equal(config.conversion, 'Ignore');
  });

  it('takes error / warn / off in any case', () => {
    const config = parse(
      'validations: [{ name: type, enforcement: warn }, { name: scope, enforcement: off }]',
    );
    assert.equal(config.checks.get('type')?.enforcement, 'warn');
    assert.equal(config.checks.get('scope')?.enforcement, 'off');
  });

  it('an empty file is the defaults', () => {
    assert.deepEqual(parse(''), defaultCompatConfig());
  });

  for (const [text, message] of [
    [
      'validations: [{ name: maximun, enforcement: Error }]',
      /unknown check "maximun"; the checks are: scope, /,
    ],
    ['validations: [{ name: maximum }]', /validations\[0\] \(maximum\) needs an enforcement/],
    [
      'validations: [{ name: maximum, enforcement: Fatal }]',
      /enforcement is "Fatal"; use Error, Warn or None/,
    ],
    [
      'validations: [{ name: enum, enforcement: Error, configuration: { additionPolicy: Maybe } }]',
      /additionPolicy is "Maybe"; use Disallow or Allow/,
    ],
    [
      'validations: [{ name: type, enforcement: Error, configuration: { strict: true } }]',
      /type has no setting "strict"/,
    ],
    ['conversion: Webhook', /conversion is "Webhook"; use None or Ignore/],
    ['validations: {}', /"validations" must be a list/],
  ] as const) {
    it(`refuses ${text}`, () => {
      assert.throws(() => parse(text), { name: 'TsoperatorError', message });
    });
  }
});
