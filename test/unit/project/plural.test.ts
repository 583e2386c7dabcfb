import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pluralize } from '../../../src/project/plural.ts';

const CASES: readonly (readonly [string, string])[] = [
  ['webapp', 'webapps'],
  ['policy', 'policies'],
  ['networkpolicy', 'networkpolicies'],
  ['ingress', 'ingresses'],
  ['endpoints', 'endpoints'],
  ['status', 'statuses'],
  ['box', 'boxes'],
  ['batch', 'batches'],
  ['mesh', 'meshes'],
  ['gateway', 'gateways'],
  ['proxy', 'proxies'],
  ['analysis', 'analyses'],
  ['redis', 'redises'],
  ['settings', 'settings'],
  ['person', 'people'],
  ['salesperson', 'salespeople'],
  ['index', 'indices'],
  ['leaf', 'leaves'],
  ['proof', 'proofs'],
  ['repo', 'repos'],
  ['hero', 'heroes'],
  ['metadata', 'metadata'],
  ['human', 'humans'],
  ['cronjob', 'cronjobs'],
];

for (const [singular, plural] of CASES) {
  test(`the plural of ${singular} is ${plural}`, () => {
    assert.equal(pluralize(singular), plural);
  });
}
