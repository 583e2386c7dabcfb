import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  apiErrorFrom,
  apiErrorFromStatus,
  ignoreNotFound,
  isConflict,
  isGone,
  isNotFound,
  isTimeout,
} from '../../../src/runtime/client/api-error.ts';

describe('ApiError', () => {
  it('reads the reason from a Status body, and from the code alone when the body is not a Status', () => {
    const status = JSON.stringify({
      kind: 'Status',
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
      message: 'the object has been modified',
    });
    const conflict = apiErrorFrom(409, status, 'PUT /x');
    assert.equal(isConflict(conflict), true);
    assert.match(conflict.message, /PUT \/x: 409 Conflict the object has been modified/);
    assert.equal(isNotFound(apiErrorFrom(404, '<html>not found</html>', 'GET /x')), true);
    assert.equal(
      isConflict(
        apiErrorFrom(409, JSON.stringify({ kind: 'Status', reason: 'AlreadyExists', code: 409 }), 'POST /x'),
      ),
      false,
    );
  });

  it('counts an expired resourceVersion from a watch ERROR event as Gone, and a server timeout as a timeout', () => {
    assert.equal(
      isGone(
        apiErrorFromStatus(
          { kind: 'Status', reason: 'Expired', code: 410, message: 'too old resource version' },
          'watch',
        ),
      ),
      true,
    );
    assert.equal(
      isTimeout(apiErrorFromStatus({ kind: 'Status', reason: 'ServerTimeout', code: 500 }, 'watch')),
      true,
    );
    assert.equal(isGone(new Error('410')), false);
  });

  it('ignoreNotFound turns NotFound into undefined and rethrows the rest', async () => {
    assert.equal(await ignoreNotFound(Promise.reject(apiErrorFrom(404, '', 'DELETE /x'))), undefined);
    await assert.rejects(ignoreNotFound(Promise.reject(apiErrorFrom(403, '', 'DELETE /x'))), /403/);
  });
  it('carries a Retry-After in details.retryAfterSeconds unless the Status said it already', () => {
    const bare = apiErrorFrom(429, 'slow down', 'GET /x', 3);
    assert.equal(bare.status.details?.retryAfterSeconds, 3);
    const said = JSON.stringify({
      kind: 'Status',
      code: 429,
      details: { retryAfterSeconds: 1, kind: 'pods' },
    });
    assert.deepEqual(apiErrorFrom(429, said, 'GET /x', 3).status.details, {
      retryAfterSeconds: 1,
      kind: 'pods',
    });
    assert.equal(apiErrorFrom(429, 'slow down', 'GET /x').status.details, undefined);
  });
});
