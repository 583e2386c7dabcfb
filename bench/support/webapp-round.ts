import type { Client } from '../../src/runtime/client/client.ts';
import { DeploymentKind } from '../../src/runtime/client/kinds.ts';
import { webApp } from '../operator/webapp-fixtures.ts';
import { WebAppKind } from '../operator/ts/webapp.ts';
import { pollUntil } from './poll.ts';
import type { OwnProxy, ProxiedOperator } from './proxied-operator.ts';

/** An operator's start-up and first reconcile take far less; past this the round fails. */
const START_TIMEOUT_MS = 120_000;

/**
 * Creates `namespace` with a first WebApp, starts the operator, and waits until it has reconciled
 * that WebApp: its caches have synced and its connections are in use.
 */
export async function reconcilingOperator<P extends OwnProxy>(
  client: Client,
  namespace: string,
  start: () => Promise<ProxiedOperator<P>>,
): Promise<ProxiedOperator<P>> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await client.create(webApp(namespace, 0));
  const operator = await start();
  const reconciled = async (): Promise<boolean> => {
    const app = await client.get(WebAppKind, { namespace, name: 'webapp-0' });
    return app?.status?.observedGeneration === app?.metadata?.generation;
  };
  try {
    if ((await pollUntil(reconciled, START_TIMEOUT_MS, () => operator.assertRunning())) === undefined)
      throw new Error(`the operator did not reconcile its first WebApp in ${START_TIMEOUT_MS} ms`);
  } catch (err) {
    await operator.stop();
    throw err;
  }
  return operator;
}

/**
 * When (performance.now()) the Deployment of the `namespace`'s WebApp `i` first existed, polled
 * every 100 ms for up to `capMs`: the operator had the WebApp and reconciled it. Undefined: not
 * within the cap.
 */
export function deployedAt<P extends OwnProxy>(
  client: Client,
  namespace: string,
  i: number,
  capMs: number,
  operator: ProxiedOperator<P>,
): Promise<number | undefined> {
  const deployed = async (): Promise<boolean> =>
    (await client.get(DeploymentKind, { namespace, name: `webapp-${i}` })) !== undefined;
  return pollUntil(deployed, capMs, () => operator.assertRunning());
}
