/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { ValidationError, type CustomValidator, type Warnings } from '../../../runtime/index.ts';
import type { CronJob } from '../../../api/batch/v1/cronjob.types.ts';

// The validating webhook `npm run manifests` writes into config/webhook/manifests.yaml. The API server
// calls it on create and update (add `delete` to the verbs to have validateDelete called too).
// +kubebuilder:webhook:path=/validate-batch-testproject-org-v1-cronjob,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.testproject.org,resources=cronjobs,verbs=create;update,versions=v1,name=vcronjob-v1.kb.io,admissionReviewVersions=v1

/** Longer values of spec.schedule are admitted with a warning, in the example rule below. */
const MAX_SCHEDULE_LENGTH = 63;

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

/** An example rule: replace it with your kind's own. */
function validateCronJob(cronJob: CronJob): Warnings {
  const schedule = cronJob.spec?.schedule;
  if (schedule === '') {
    throw new ValidationError([{ field: 'spec.schedule', type: 'Required', message: 'must not be empty' }]);
  }
  if (schedule !== undefined && schedule.length > MAX_SCHEDULE_LENGTH) {
    return [`spec.schedule is longer than ${MAX_SCHEDULE_LENGTH.toString()} characters`];
  }
  return [];
}
