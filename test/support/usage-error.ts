import assert from 'node:assert/strict';
import { UsageError } from '../../src/errors.ts';

/** An `assert.throws`/`rejects` validator: a UsageError whose message matches `pattern`. */
export function usageErrorMatching(pattern: RegExp): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof UsageError, `expected a UsageError, got ${String(err)}`);
    assert.match(err.message, pattern);
    return true;
  };
}
