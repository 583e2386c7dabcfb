import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kustomizeBuild } from '../../../src/deploy/kustomize-build.ts';
import { TsoperatorError } from '../../../src/errors.ts';

test('without kubectl, building config/default says to install it or name one', async () => {
  await assert.rejects(
    kustomizeBuild({ dir: '.', image: { name: 'op', tag: 'v1' }, kubectl: 'tsoperator-no-such-kubectl' }),
    (err: unknown) => {
      assert.ok(err instanceof TsoperatorError);
      assert.match(err.message, /tsoperator-no-such-kubectl was not found: install kubectl .* --kubectl/);
      return true;
    },
  );
});
