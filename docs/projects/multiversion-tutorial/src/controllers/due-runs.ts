/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { Cron } from 'croner';
import type { CronJobSpec } from '../api/v1/cronjob.types.ts';

// #region due-runs
/** More missed runs than this means a clock or a schedule gone wrong: the controller says so. */
export const MAX_MISSED_RUNS = 100;

/** The run to start now, if one is due, and when the one after it is. */
export interface DueRuns {
  /** The latest scheduled time in (since, now], unless it is past spec.startingDeadlineSeconds. */
  readonly due: Date | undefined;
  /** How many scheduled times fell in (since, now], counted up to MAX_MISSED_RUNS + 1. */
  readonly missed: number;
  /** The first scheduled time after now. */
  readonly next: Date;
}

/**
 * Which run is due at `now`, given that the last one was scheduled for `since` (or the CronJob
 * was created then): only the latest missed run starts, and not at all once it is older than the
 * starting deadline, as Kubernetes' CronJob controller does.
 */
export function dueRuns(spec: CronJobSpec, since: Date, now: Date): DueRuns {
  const cron = new Cron(spec.schedule, { paused: true });
  // previousRuns gives the runs before its reference: one millisecond on, `now` itself counts.
  const latest = cron.previousRuns(1, new Date(now.getTime() + 1))[0];
  const missed = latest !== undefined && latest > since ? runsBetween(cron, since, now) : 0;
  const deadline = spec.startingDeadlineSeconds;
  const tooLate =
    deadline !== undefined && latest !== undefined && now.getTime() - latest.getTime() > deadline * 1000;
  const next = cron.nextRun(now);
  if (next === null) throw new Error(`the schedule ${spec.schedule} has no run after ${now.toISOString()}`);
  return { due: missed > 0 && !tooLate ? latest : undefined, missed, next };
}

/** The scheduled times in (since, now], counted up to one more than MAX_MISSED_RUNS. */
function runsBetween(cron: Cron, since: Date, now: Date): number {
  return cron.nextRuns(MAX_MISSED_RUNS + 1, since).filter((run) => run <= now).length;
}
// #endregion due-runs
