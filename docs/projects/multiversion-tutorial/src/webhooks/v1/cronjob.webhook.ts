/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { Manager } from '../../runtime/index.ts';
import { CronJobKind } from '../../api/v1/cronjob.types.ts';
import { CronJobDefaulter } from './cronjob.defaulter.ts';
import { CronJobValidator } from './cronjob.validator.ts';
import { cronJobV2Conversion } from '../v2/cronjob.conversion.ts';
// +tsoperator:scaffold:webhook-imports

/**
 * Serves the CronJob v1 webhooks from the manager's webhook server: main.ts calls it, and so
 * does the webhook test. `tsoperator create webhook` adds each new webhook type here.
 */
export function setupCronJobV1Webhooks(mgr: Manager): void {
  mgr.webhookServer.registerDefaulter(CronJobKind, new CronJobDefaulter());
  mgr.webhookServer.registerValidator(CronJobKind, new CronJobValidator());
  mgr.webhookServer.registerConversion(CronJobKind, { v2: cronJobV2Conversion });
  // +tsoperator:scaffold:webhooks
}
