import { after, before } from 'node:test';
import type { Environment } from '../../../src/envtest/index.ts';
import type { Client } from '../../../src/runtime/client/client.ts';
import { createWidgets } from './in-process-ring.ts';
import { startRingEnvironment } from './ring-environment.ts';
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
  let ring: ProcessRing | undefined;
  before(async () => {
    const { env, client } = await startRingEnvironment(namespace);
    await createWidgets(client, namespace, 'widget', widgets);
    ring = { env, client, shards: new ShardProcesses(env.kubeconfigPath, namespace) };
  });
  after(async () => {
    await ring?.shards.stopAll();
    await ring?.env.stop();
  });
  const started = (): ProcessRing => {
    if (!ring) throw new Error('the ring is there once the suite’s before has run');
    return ring;
  };
  return {
    get env() {
      return started().env;
    },
    get client() {
      return started().client;
    },
    get shards() {
      return started().shards;
    },
  };
}
