/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { useCurrentCluster } from './cluster-choice.ts';
import { startCurrentCluster } from './current-cluster.ts';
import type { E2eCluster } from './e2e-cluster.ts';
import { startLocalCluster } from './local-cluster.ts';

/** Starts the manager where E2E_USE_CURRENT_CLUSTER says: the current kubeconfig's cluster when true or 1. */
export async function startE2eCluster(): Promise<E2eCluster> {
  return useCurrentCluster(process.env['E2E_USE_CURRENT_CLUSTER'])
    ? startCurrentCluster()
    : startLocalCluster();
}
