import type { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '../../src/runtime/client/client.ts';
import { DeploymentKind } from '../../src/runtime/client/kinds.ts';
import type { Contender } from '../operator/contender.ts';
import { webApp } from '../operator/webapp-fixtures.ts';
import { WebAppKind } from '../operator/ts/webapp.ts';
import { ProxiedOperator } from './proxied-operator.ts';

/** What one contender did after its path went silent. */
export interface SilencedRun {
  readonly name: string;
  /** From the silence (and the WebApp's creation) until its Deployment existed; undefined: not within the cap. */
  readonly recoverySeconds: number | undefined;
  /** Connections the operator opened through the proxy before the silence, and after it. */
  readonly connectionsBefore: number;
  readonly connectionsAfter: number;
}

const POLL_MS = 100;
/** An operator's start-up and first reconcile take far less; past this the round fails. */
const START_TIMEOUT_MS = 120_000;

/**
 * One round: the operator starts behind its own proxy and reconciles a first WebApp (so its caches
 * have synced and its connections are in use); `settleMs` later the proxy stops forwarding on every open
 * connection without closing any, a second WebApp is created directly on the API server, and the
 * clock runs until the operator has created that WebApp's Deployment through a new connection.
 */
export async function silencedRound(
  contender: Contender,
  server: string,
  kubeConfig: KubeConfig,
  client: Client,
  namespace: string,
  capMs: number,
  settleMs: number,
): Promise<SilencedRun> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await client.create(webApp(namespace, 0));
  const operator = await ProxiedOperator.start(contender, server, kubeConfig);
  try {
    const reconciled = async (): Promise<boolean> => {
      const app = await client.get(WebAppKind, { namespace, name: 'webapp-0' });
      return app?.status?.observedGeneration === app?.metadata?.generation;
    };
    if ((await until(reconciled, START_TIMEOUT_MS, operator)) === undefined) {
      throw new Error(`${contender.name} did not reconcile its first WebApp in ${START_TIMEOUT_MS} ms`);
    }
    await sleep(settleMs);
    const connectionsBefore = operator.proxy.connections;
    operator.proxy.silence();
    const silencedAt = performance.now();
    await client.create(webApp(namespace, 1));
    const deployed = async (): Promise<boolean> =>
      (await client.get(DeploymentKind, { namespace, name: 'webapp-1' })) !== undefined;
    const at = await until(deployed, capMs, operator);
    return {
      name: contender.name,
      recoverySeconds: at === undefined ? undefined : (at - silencedAt) / 1000,
      connectionsBefore,
      connectionsAfter: operator.proxy.connections - connectionsBefore,
    };
  } finally {
    await operator.stop();
  }
}

/** When `done` first held (performance.now()), polled every 100 ms for up to `timeoutMs`. */
async function until(
  done: () => Promise<boolean>,
  timeoutMs: number,
  operator: ProxiedOperator,
): Promise<number | undefined> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await done()) return performance.now();
    operator.assertRunning();
    await sleep(POLL_MS);
  }
  return undefined;
}
