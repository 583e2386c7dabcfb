import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { tsoperatorDependency } from '../../../src/scaffold/tsoperator-dependency.ts';

const root = join('/', 'home', 'dev');

test('installed from npm (npx, global or a devDependency), a project takes tsoperator from the registry', () => {
  for (const installed of [
    join(root, '.npm', '_npx', 'abc', 'node_modules', 'tsoperator'),
    join('/', 'usr', 'lib', 'node_modules', 'tsoperator'),
    join(root, 'operator', 'node_modules', 'tsoperator'),
  ]) {
    assert.deepEqual(tsoperatorDependency('0.1.0', undefined, join(installed, 'package.json')), {
      spec: '^0.1.0',
    });
  }
});

test('run from a checkout, a project takes that checkout, which npm install links', () => {
  const checkout = join(root, 'src', 'tsoperator');
  assert.deepEqual(tsoperatorDependency('0.1.0', undefined, join(checkout, 'package.json')), {
    spec: `file:${checkout}`,
    checkout,
  });
});

test('--tsoperator-dependency wins over both', () => {
  const checkout = join(root, 'src', 'tsoperator', 'package.json');
  assert.deepEqual(tsoperatorDependency('0.1.0', '^0.1.0', checkout), { spec: '^0.1.0' });
});
