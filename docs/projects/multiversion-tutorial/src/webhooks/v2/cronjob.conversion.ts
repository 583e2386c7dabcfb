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
 * - spec.schedule is Cron text in v1 and its five parts in v2: each converts to the other, and v1's
 *   text is kept in an annotation where the parts would not give it back as written.
 */
export const cronJobV2Conversion: SpokeConversion<CronJob, CronJobV2> = {
  convertTo(spoke: CronJobV2): CronJob {
    return restoreScheduleText({ ...spoke, spec: specToV1(spoke.spec) });
  },
  convertFrom(hub: CronJob): CronJobV2 {
    return keepScheduleText({ ...hub, spec: specToV2(hub.spec) }, hub.spec.schedule);
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
/**
 * v1's schedule text, kept on a v2 object where the five fields do not give it back as written
 * (`@hourly`, two spaces): a conversion must lose nothing on the way there and back.
 */
export const SCHEDULE_TEXT_ANNOTATION = 'batch.tutorial.tsoperator.io/schedule-text';

/** The descriptors Kubernetes' CronJob reads, as five fields. */
const DESCRIPTORS = new Map([
  ['@yearly', '0 0 1 1 *'],
  ['@annually', '0 0 1 1 *'],
  ['@monthly', '0 0 1 * *'],
  ['@weekly', '0 0 * * 0'],
  ['@daily', '0 0 * * *'],
  ['@midnight', '0 0 * * *'],
  ['@hourly', '0 * * * *'],
]);

/** A v2 schedule as v1's Cron text: a part left out is `*`. */
function cronText(schedule: CronSchedule): string {
  const { minute = '*', hour = '*', dayOfMonth = '*', month = '*', dayOfWeek = '*' } = schedule;
  return [minute, hour, dayOfMonth, month, dayOfWeek].join(' ');
}

/** v1's Cron text as a v2 schedule, a field for each part. */
function cronSchedule(text: string): CronSchedule {
  const fields = (DESCRIPTORS.get(text.trim()) ?? text).trim().split(/\s+/);
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields;
  return { minute, hour, dayOfMonth, month, dayOfWeek };
}

/** `spoke`, with v1's schedule text in an annotation when its fields do not give it back. */
function keepScheduleText(spoke: CronJobV2, text: string): CronJobV2 {
  if (cronText(spoke.spec.schedule) === text) return spoke;
  const annotations = { ...spoke.metadata?.annotations, [SCHEDULE_TEXT_ANNOTATION]: text };
  return { ...spoke, metadata: { ...spoke.metadata, annotations } };
}

/** `hub` with the schedule text kept on its way through v2, unless v2's schedule changed since. */
function restoreScheduleText(hub: CronJob): CronJob {
  const { [SCHEDULE_TEXT_ANNOTATION]: text, ...annotations } = hub.metadata?.annotations ?? {};
  if (text === undefined) return hub;
  const metadata: NonNullable<CronJob['metadata']> = { ...hub.metadata, annotations };
  // An object that had no annotations has none again: undefined is left out of the JSON.
  if (Object.keys(annotations).length === 0) metadata.annotations = undefined;
  const unchanged = cronText(cronSchedule(text)) === hub.spec.schedule;
  return { ...hub, metadata, spec: { ...hub.spec, schedule: unchanged ? text : hub.spec.schedule } };
}
// #endregion schedule-conversion
