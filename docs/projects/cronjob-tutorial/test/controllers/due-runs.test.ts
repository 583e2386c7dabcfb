/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CronJobSpec } from '../../src/api/v1/cronjob.types.ts';
import { dueRuns } from '../../src/controllers/due-runs.ts';

const everyMinute: CronJobSpec = { schedule: '*/1 * * * *', jobTemplate: {} };
const at = (time: string): Date => new Date(`2026-03-01T${time}Z`);

// #region test
describe('dueRuns', () => {
  it('has nothing due before the first scheduled time, and names it as next', () => {
    const { due, next } = dueRuns(everyMinute, at('10:00:10'), at('10:00:50'));

    assert.equal(due, undefined);
    assert.deepEqual(next, at('10:01:00'));
  });

  it('starts only the latest of several missed runs', () => {
    const { due, next } = dueRuns(everyMinute, at('10:00:10'), at('10:03:30'));

    assert.deepEqual(due, at('10:03:00'));
    assert.deepEqual(next, at('10:04:00'));
  });

  it('starts no run older than the starting deadline', () => {
    const spec = { ...everyMinute, startingDeadlineSeconds: 20 };

    assert.equal(dueRuns(spec, at('10:00:10'), at('10:03:30')).due, undefined);
    assert.deepEqual(dueRuns(spec, at('10:00:10'), at('10:03:15')).due, at('10:03:00'));
  });

  it('still starts the latest run after more than 100 missed, and says how many it counted', () => {
    const { due, missed } = dueRuns(everyMinute, at('10:00:00'), at('12:00:30'));

    assert.deepEqual(due, at('12:00:00'));
    assert.equal(missed, 101);
  });

  it('takes a run scheduled for now as due, and one at since as done', () => {
    assert.deepEqual(dueRuns(everyMinute, at('10:00:00'), at('10:01:00')).due, at('10:01:00'));
    assert.equal(dueRuns(everyMinute, at('10:01:00'), at('10:01:00')).due, undefined);
  });
});
// #endregion test
