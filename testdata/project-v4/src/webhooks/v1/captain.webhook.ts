/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { Manager } from '../../runtime/index.ts';
import { CaptainKind } from '../../api/v1/captain.types.ts';
import { CaptainDefaulter } from './captain.defaulter.ts';
import { CaptainValidator } from './captain.validator.ts';
import { captainV2Conversion } from '../v2/captain.conversion.ts';
// +tsoperator:scaffold:webhook-imports

/**
 * Serves the Captain v1 webhooks from the manager's webhook server: main.ts calls it, and so
 * does the webhook test. `tsoperator create webhook` adds each new webhook type here.
 */
export function setupCaptainV1Webhooks(mgr: Manager): void {
  mgr.webhookServer.registerDefaulter(CaptainKind, new CaptainDefaulter());
  mgr.webhookServer.registerValidator(CaptainKind, new CaptainValidator());
  mgr.webhookServer.registerConversion(CaptainKind, { v2: captainV2Conversion });
  // +tsoperator:scaffold:webhooks
}
