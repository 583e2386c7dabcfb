import assert from 'node:assert/strict';
import { test } from 'node:test';
import { consistently, eventually } from '../../../src/envtest/index.ts';

test('eventually retries an assertion until it holds, and returns its value', async () => {
  let tries = 0;
  const value = await eventually(
    () => {
      tries += 1;
      assert.ok(tries >= 3, 'not yet');
      return tries;
    },
    { intervalMs: 1 },
  );
  assert.equal(value, 3);
});

test('eventually fails with the last error once its time is up', async () => {
  await assert.rejects(
    eventually(
      () => {
        throw new Error('the Job has no Pod');
      },
      { timeoutMs: 20, intervalMs: 5 },
    ),
    /still failing after 20 ms: the Job has no Pod/,
  );
});

test('consistently fails at the first try that throws, and passes when every try holds', async () => {
  let tries = 0;
  await assert.rejects(
    consistently(
      () => {
        tries += 1;
        if (tries === 3) throw new Error('a Job was created');
      },
      { timeoutMs: 1_000, intervalMs: 1 },
    ),
    /a Job was created/,
  );
  assert.equal(tries, 3);
  let held = 0;
  await consistently(
    () => {
      held += 1;
    },
    { timeoutMs: 30, intervalMs: 5 },
  );
  assert.ok(held >= 2);
});
