import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LabelSelectorError, matchesLabels } from '../../../src/runtime/cache/label-selector.ts';
import { parseLabelSelector } from '../../../src/runtime/cache/label-selector-parser.ts';

describe('label selectors', () => {
  const matches = (selector: string, labels?: Record<string, string>): boolean =>
    matchesLabels(parseLabelSelector(selector), labels);

  it('reads equality, inequality, set, existence and integer terms as the API server does', () => {
    assert.deepEqual(parseLabelSelector('a=1, b==2,c!=3,d in (y, x),e notin (z),f,!g,h>4,i<5'), [
      { key: 'a', op: 'in', values: ['1'] },
      { key: 'b', op: 'in', values: ['2'] },
      { key: 'c', op: 'notin', values: ['3'] },
      { key: 'd', op: 'in', values: ['x', 'y'] },
      { key: 'e', op: 'notin', values: ['z'] },
      { key: 'f', op: 'exists', values: [] },
      { key: 'g', op: '!', values: [] },
      { key: 'h', op: 'gt', values: ['4'] },
      { key: 'i', op: 'lt', values: ['5'] },
    ]);
  });

  it('reads the corners of the grammar: empty values, in and notin as words, no spaces needed', () => {
    assert.deepEqual(parseLabelSelector('a in (),b notin (,x,),c==,d!='), [
      { key: 'a', op: 'in', values: [''] },
      { key: 'b', op: 'notin', values: ['', 'x'] },
      { key: 'c', op: 'in', values: [''] },
      { key: 'd', op: 'notin', values: [''] },
    ]);
    assert.deepEqual(parseLabelSelector('in in (in,notin)'), [
      { key: 'in', op: 'in', values: ['in', 'notin'] },
    ]);
    assert.deepEqual(parseLabelSelector('x.io/a>10'), [{ key: 'x.io/a', op: 'gt', values: ['10'] }]);
    assert.deepEqual(parseLabelSelector(' \t'), []);
  });

  it('matches only labels that meet every requirement', () => {
    assert.equal(matches('app=web,tier in (fe,be)', { app: 'web', tier: 'fe' }), true);
    assert.equal(matches('app=web,tier in (fe,be)', { app: 'web', tier: 'db' }), false);
    assert.equal(matches('app!=web', {}), true, 'a missing label is "not equal"');
    assert.equal(matches('canary', { canary: '' }), true);
    assert.equal(matches('!canary', { canary: 'yes' }), false);
    assert.equal(matches('', undefined), true, 'the empty selector matches everything');
  });

  it('compares > and < as 64-bit integers, and never matches a label that is not one', () => {
    assert.equal(matches('n>9', { n: '10' }), true, 'as numbers, not as text');
    assert.equal(matches('n>9', { n: '9' }), false);
    assert.equal(matches('n<10', { n: '007' }), true);
    assert.equal(matches('n>1', { n: 'many' }), false);
    assert.equal(matches('n<1', {}), false, 'a missing label is neither greater nor less');
    assert.equal(matches('n>9223372036854775806', { n: '9223372036854775807' }), true);
    assert.equal(matches('n<1', { n: '99999999999999999999' }), false, 'beyond int64 is no integer');
  });

  it("refuses what the API server refuses, in the API server's words", () => {
    const valueRule =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    const refusals: [string, string][] = [
      [
        'a>x',
        `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`,
      ],
      [
        'a<99999999999999999999',
        `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
      ],
      [
        'a>',
        `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`,
      ],
      ['a>-1', `unable to parse requirement: values[0][a]: Invalid value: "-1": ${valueRule}`],
      ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
      ['!a=b', "found '=', expected: ',' or 'end of string'"],
      ['a=b c', "found 'c', expected: ',' or 'end of string'"],
      ['a=b=c', "found '=', expected: ',' or 'end of string'"],
      ['a,', "found '', expected: identifier after ','"],
      [',a', "found ',', expected: !, identifier, or 'end of string'"],
      ['a=(', "unable to parse requirement: found '(', expected: identifier"],
      ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
      [
        'Bad_/x',
        `unable to parse requirement: <nil>: Invalid value: "Bad_/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ];
    for (const [selector, message] of refusals) {
      assert.throws(
        () => parseLabelSelector(selector),
        (err) => err instanceof LabelSelectorError && err.message === message,
        selector,
      );
    }
  });
});
