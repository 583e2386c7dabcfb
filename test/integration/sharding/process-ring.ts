import { after, before } from 'node:test';
import type { Environment } from '../../../src/envtest/index.ts';
import type { Client } from '../../../src/runtime/client/client.ts';
import { createWidgets } from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';
import { ShardProcesses } from './shards.ts';

/** The API server of a test of shard processes, a client of it, and the processes. */
export interface ProcessRing {
  readonly env: Environment;
  readonly client: Client;
  readonly shards: ShardProcesses;
}

/**
 * Registers the enclosing suite's before and after: an API server whose namespace `namespace`
 * holds `widgets` Widgets (`widget-0`, ...), and the suite's shard processes, killed after it.
 * What it returns is there once the suite's tests run.
 */
export function processRing(namespace: string, widgets: number): ProcessRing {
  let shards: ShardProcesses | undefined;
  // Hooks run in the order registered: the processes are killed before the API server stops.
  after(async () => {
    await shards?.stopAll();
  });
  const api = ringEnvironment(namespace);
  before(async () => {
    await createWidgets(api.client, namespace, 'widget', widgets);
    shards = new ShardProcesses(api.env.kubeconfigPath, namespace);
  });
  return {
    get env() {
      return api.env;
    },
    get client() {
      return api.client;
    },
    get shards() {
      if (!shards) throw new Error('the shard processes are there once the suite’s before has run');
      return shards;
    },
  };
}
