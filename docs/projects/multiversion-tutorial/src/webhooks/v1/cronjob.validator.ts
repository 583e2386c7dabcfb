/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { Cron } from 'croner';
import {
  ValidationError,
  type CustomValidator,
  type FieldError,
  type Warnings,
} from '../../runtime/index.ts';
import type { CronJob } from '../../api/v1/cronjob.types.ts';

// The validating webhook `npm run manifests` writes into config/webhook/manifests.yaml. The API server
// calls it on create and update (add `delete` to the verbs to have validateDelete called too).
// +kubebuilder:webhook:path=/validate-batch-tutorial-tsoperator-io-v1-cronjob,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.tsoperator.io,resources=cronjobs,verbs=create;update,versions=v1,name=vcronjob-v1.kb.io,admissionReviewVersions=v1

/**
 * Admits or refuses a CronJob: return warnings (kubectl prints them) to admit it, throw a
 * ValidationError naming the fields at fault to refuse it.
 */
export class CronJobValidator implements CustomValidator<CronJob> {
  validateCreate(cronJob: CronJob): Warnings {
    return validateCronJob(cronJob);
  }

  validateUpdate(_oldCronJob: CronJob, cronJob: CronJob): Warnings {
    return validateCronJob(cronJob);
  }

  validateDelete(): Warnings {
    // Called only once `delete` is in the marker's verbs; refuse here to protect objects in use.
    return [];
  }
}

// #region validate
/** A CronJob's Jobs are named after it plus 11 characters, and a Job's name must fit in 63. */
const MAX_NAME_LENGTH = 52;

/** Refuses a CronJob whose schedule does not parse, or whose name is too long for its Jobs. */
function validateCronJob(cronJob: CronJob): Warnings {
  const errors: FieldError[] = [];
  const name = cronJob.metadata?.name ?? '';
  if (name.length > MAX_NAME_LENGTH) {
    errors.push({
      field: 'metadata.name',
      type: 'TooLong',
      message: `may not be more than ${MAX_NAME_LENGTH.toString()} characters`,
    });
  }
  const problem = scheduleProblem(cronJob.spec.schedule);
  if (problem !== undefined) {
    errors.push({ field: 'spec.schedule', value: cronJob.spec.schedule, message: problem });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return [];
}

/**
 * What is wrong with a schedule, as Kubernetes' CronJob reads schedules: five fields (minute,
 * hour, day of month, month, day of week) or a descriptor such as `@hourly`, with a next run.
 */
function scheduleProblem(schedule: string): string | undefined {
  const text = schedule.trim();
  if (!text.startsWith('@') && text.split(/\s+/).length !== 5) {
    return 'must have five fields: minute, hour, day of month, month and day of week';
  }
  try {
    if (new Cron(text, { paused: true }).nextRun() === null) return 'has no next run';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return undefined;
}
// #endregion validate
