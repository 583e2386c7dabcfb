/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { SpokeConversion } from '../../runtime/index.ts';
import type { CronJob } from '../../api/v1/cronjob.types.ts';
import type { CronJob as CronJobV2, CronSchedule } from '../../api/v2/cronjob.types.ts';

/**
 * Converts CronJob v2 to and from v1, the hub every version converts through: the API server calls the
 * conversion webhook when a client reads or writes a version other than the one stored. Fields both
 * versions have with the same type are copied. Where they differ, what is written below compiles but
 * cannot know what you meant (a renamed field, a new structure): write that here, and keep what a
 * version cannot hold in an annotation, so that nothing is lost on the way back.
 * - spec.schedule is Cron text in v1 and its five parts in v2: each converts to the other.
 */
export const cronJobV2Conversion: SpokeConversion<CronJob, CronJobV2> = {
  convertTo(spoke: CronJobV2): CronJob {
    return { ...spoke, spec: specToV1(spoke.spec) };
  },
  convertFrom(hub: CronJob): CronJobV2 {
    return { ...hub, spec: specToV2(hub.spec) };
  },
};

/** A v2 spec as v1 has it. */
function specToV1(spec: CronJobV2['spec']): CronJob['spec'] {
  return {
    schedule: cronText(spec.schedule),
    startingDeadlineSeconds: spec.startingDeadlineSeconds,
    concurrencyPolicy: spec.concurrencyPolicy,
    suspend: spec.suspend,
    jobTemplate: spec.jobTemplate,
    successfulJobsHistoryLimit: spec.successfulJobsHistoryLimit,
    failedJobsHistoryLimit: spec.failedJobsHistoryLimit,
  };
}

/** A v1 spec as v2 has it. */
function specToV2(spec: CronJob['spec']): CronJobV2['spec'] {
  return {
    schedule: cronSchedule(spec.schedule),
    startingDeadlineSeconds: spec.startingDeadlineSeconds,
    concurrencyPolicy: spec.concurrencyPolicy,
    suspend: spec.suspend,
    jobTemplate: spec.jobTemplate,
    successfulJobsHistoryLimit: spec.successfulJobsHistoryLimit,
    failedJobsHistoryLimit: spec.failedJobsHistoryLimit,
  };
}

// #region schedule-conversion
/** A v2 schedule as v1's Cron text: a part left out is `*`. */
function cronText(schedule: CronSchedule): string {
  const { minute = '*', hour = '*', dayOfMonth = '*', month = '*', dayOfWeek = '*' } = schedule;
  return [minute, hour, dayOfMonth, month, dayOfWeek].join(' ');
}

/** v1's Cron text as a v2 schedule, a field for each part. */
function cronSchedule(text: string): CronSchedule {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = text.split(' ');
  return { minute, hour, dayOfMonth, month, dayOfWeek };
}
// #endregion schedule-conversion
