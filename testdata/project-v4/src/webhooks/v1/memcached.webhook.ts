/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { Manager } from '../../runtime/index.ts';
import { MemcachedKind } from '../../api/v1/memcached.types.ts';
import { MemcachedDefaulter } from './memcached.defaulter.ts';
import { MemcachedValidator } from './memcached.validator.ts';
// +tsoperator:scaffold:webhook-imports

/**
 * Serves the Memcached v1 webhooks from the manager's webhook server: main.ts calls it, and so
 * does the webhook test. `tsoperator create webhook` adds each new webhook type here.
 */
export function setupMemcachedV1Webhooks(mgr: Manager): void {
  mgr.webhookServer.registerDefaulter(MemcachedKind, new MemcachedDefaulter());
  mgr.webhookServer.registerValidator(MemcachedKind, new MemcachedValidator());
  // +tsoperator:scaffold:webhooks
}
