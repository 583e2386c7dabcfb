import type { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '../../src/runtime/client/client.ts';
import { SeverableProxy } from '../../test/support/severable-proxy.ts';
import type { Contender } from '../operator/contender.ts';
import { webApp } from '../operator/webapp-fixtures.ts';
import { proxiedKubeConfig } from '../support/proxied-kubeconfig.ts';
import { ProxiedOperator } from '../support/proxied-operator.ts';
import { deployedAt, reconcilingOperator } from '../support/webapp-round.ts';

/** What one contender did after its path went silent. */
export interface SilencedRun {
  readonly name: string;
  /** From the silence (and the WebApp's creation) until its Deployment existed; undefined: not within the cap. */
  readonly recoverySeconds: number | undefined;
  /** Connections the operator opened through the proxy before the silence, and after it. */
  readonly connectionsBefore: number;
  readonly connectionsAfter: number;
}

/** The operator behind a severable TCP proxy of its own, TLS passing through it. */
export async function severableOperator(
  contender: Contender,
  server: string,
  kubeConfig: KubeConfig,
): Promise<ProxiedOperator<SeverableProxy>> {
  const proxy = await SeverableProxy.start(server);
  return ProxiedOperator.start(contender, proxiedKubeConfig(kubeConfig, proxy.url), proxy);
}

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
  const operator = await reconcilingOperator(client, namespace, () =>
    severableOperator(contender, server, kubeConfig),
  );
  try {
    await sleep(settleMs);
    const connectionsBefore = operator.proxy.connections;
    operator.proxy.silence();
    const silencedAt = performance.now();
    await client.create(webApp(namespace, 1));
    const at = await deployedAt(client, namespace, 1, capMs, operator);
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
