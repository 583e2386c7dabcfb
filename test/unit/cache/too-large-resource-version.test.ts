import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, apiErrorFrom } from '../../../src/runtime/client/api-error.ts';
import { isTooLargeResourceVersion } from '../../../src/runtime/cache/too-large-resource-version.ts';

describe('isTooLargeResourceVersion', () => {
  it('knows the API server answers for a resourceVersion it has not reached, old and new', () => {
    const withCause = apiErrorFrom(
      504,
      JSON.stringify({
        kind: 'Status',
        code: 504,
        reason: 'Timeout',
        message: 'Too large resource version: 20, current: 10',
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
      }),
      'GET /api/v1/configmaps',
    );
    const byMessage = new ApiError(
      504,
      {
        kind: 'Status',
        code: 504,
        reason: 'Timeout',
        message: 'Too large resource version: 20, current: 10',
      },
      'GET /api/v1/configmaps',
    );
    assert.equal(isTooLargeResourceVersion(withCause), true);
    assert.equal(
      isTooLargeResourceVersion(byMessage),
      true,
      'servers before 1.18.6 said it in the message only',
    );
  });

  it('takes no other timeout or error for it', () => {
    const timeout = new ApiError(
      504,
      { kind: 'Status', code: 504, reason: 'Timeout', message: 'slow etcd' },
      'GET /x',
    );
    assert.equal(isTooLargeResourceVersion(timeout), false);
    assert.equal(isTooLargeResourceVersion(new Error('Too large resource version')), false);
  });
});
