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
export async function startRingEnvironment(
  namespace: string,
  apiServerArgs: readonly string[] = [],
): Promise<RingEnvironment> {
  const env = await startEnvironment({ crdPaths: [widgetsCrd], apiServerArgs });
  const client = newClient({ kubeConfig: env.kubeConfig });
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  return { env, client };
}
