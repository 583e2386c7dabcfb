/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { Cron } from 'croner';
import type { CronJobSpec } from '../api/v1/cronjob.types.ts';

// #region due-runs
/** More missed runs than this means a clock or a schedule gone wrong: refuse to guess. */
const MAX_MISSED_RUNS = 100;

/** The run to start now, if one is due, and when the one after it is. */
export interface DueRuns {
  /** The latest scheduled time in (since, now], unless it is past spec.startingDeadlineSeconds. */
  readonly due: Date | undefined;
  /** The first scheduled time after now. */
  readonly next: Date;
}

/**
 * Which run is due at `now`, given that the last one started at `since` (or the CronJob was
 * created then): only the latest missed run starts, and not at all once it is older than the
 * starting deadline, as Kubernetes' CronJob controller does.
 */
export function dueRuns(spec: CronJobSpec, since: Date, now: Date): DueRuns {
  const cron = new Cron(spec.schedule, { paused: true });
  const deadline = spec.startingDeadlineSeconds;
  // Runs before the deadline window cannot start anyway: no need to count them.
  const earliest =
    deadline === undefined ? since : new Date(Math.max(since.getTime(), now.getTime() - deadline * 1000));
  let due: Date | undefined;
  let missed = 0;
  for (let run = cron.nextRun(earliest); run !== null && run <= now; run = cron.nextRun(run)) {
    due = run;
    missed += 1;
    if (missed > MAX_MISSED_RUNS) {
      throw new Error(
        `more than ${MAX_MISSED_RUNS.toString()} missed runs: set or lower spec.startingDeadlineSeconds, or check the clock`,
      );
    }
  }
  const next = cron.nextRun(now);
  if (next === null) throw new Error(`the schedule ${spec.schedule} has no run after ${now.toISOString()}`);
  return { due, next };
}
// #endregion due-runs
