import { after, before } from 'node:test';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { widgetsCrd } from '../controller/support.ts';

/** The API server of a sharding test, and a client of it. */
export interface RingEnvironment {
  readonly env: Environment;
  readonly client: Client;
}

/**
 * Starts an API server with the Widget CRD (and `apiServerArgs`), and creates the test's
 * `namespace` on it.
 */
async function startRingEnvironment(
  namespace: string,
  apiServerArgs: readonly string[] = [],
): Promise<RingEnvironment> {
  const env = await startEnvironment({ crdPaths: [widgetsCrd], apiServerArgs });
  const client = newClient({ kubeConfig: env.kubeConfig });
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  return { env, client };
}

/**
 * Registers the enclosing suite's before and after: the API server of {@link startRingEnvironment},
 * stopped after the suite. What it returns is there once the suite's tests run. An after the suite
 * registers before this one runs before the API server stops.
 */
export function ringEnvironment(namespace: string, apiServerArgs: readonly string[] = []): RingEnvironment {
  let started: RingEnvironment | undefined;
  before(async () => {
    started = await startRingEnvironment(namespace, apiServerArgs);
  });
  after(async () => {
    await started?.env.stop();
  });
  const ready = (): RingEnvironment => {
    if (!started) throw new Error('the API server is there once the suite’s before has run');
    return started;
  };
  return {
    get env() {
      return ready().env;
    },
    get client() {
      return ready().client;
    },
  };
}
