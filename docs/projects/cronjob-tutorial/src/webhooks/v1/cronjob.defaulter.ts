/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { CustomDefaulter } from '../../runtime/index.ts';
import type { CronJob } from '../../api/v1/cronjob.types.ts';

// The mutating webhook `npm run manifests` writes into config/webhook/manifests.yaml. The API server
// calls it on create and update, before validation; failurePolicy=fail refuses writes while it is down.
// +kubebuilder:webhook:path=/mutate-batch-tutorial-tsoperator-io-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.tsoperator.io,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1

/**
 * Fills in what a CronJob leaves out. It changes the object it is given; the webhook answers the
 * API server with a JSON patch of those changes.
 */
export class CronJobDefaulter implements CustomDefaulter<CronJob> {
  default(cronJob: CronJob): void {
    // #region default
    cronJob.spec.concurrencyPolicy ??= 'Allow';
    cronJob.spec.suspend ??= false;
    cronJob.spec.successfulJobsHistoryLimit ??= 3;
    cronJob.spec.failedJobsHistoryLimit ??= 1;
    // #endregion default
  }
}
