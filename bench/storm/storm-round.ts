import type { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '../../src/runtime/client/client.ts';
import { restConfigOf } from '../../src/runtime/config/rest-config-source.ts';
import { ThrottlingProxy } from '../../test/support/throttling-proxy.ts';
import type { Contender } from '../operator/contender.ts';
import { webApp } from '../operator/webapp-fixtures.ts';
import { proxiedKubeConfig } from '../support/proxied-kubeconfig.ts';
import { ProxiedOperator } from '../support/proxied-operator.ts';
import { deployedAt, reconcilingOperator } from '../support/webapp-round.ts';

/** What one contender did through one storm. */
export interface StormRun {
  readonly name: string;
  readonly stormSeconds: number;
  /** From the storm's end until the Deployment of the WebApp created during it existed; undefined: not within the cap. */
  readonly lateSeconds: number | undefined;
  /** Requests the proxy answered 429 during the storm. */
  readonly turnedAway: number;
}

/** How far into the storm the WebApp is created: every watch has been ended and turned away by then. */
const CREATE_AFTER_MS = 1000;

/**
 * The operator behind an HTTP proxy of its own (HTTP/2, or HTTP/1.1 for a client that offers only
 * that), which ends TLS and authenticates upstream with the admin's client certificate.
 */
async function throttledOperator(
  contender: Contender,
  kubeConfig: KubeConfig,
): Promise<ProxiedOperator<ThrottlingProxy>> {
  const upstream = restConfigOf(kubeConfig);
  const proxy = await ThrottlingProxy.start(upstream);
  const { server, ca } = proxy.configFor(upstream);
  if (!ca) throw new Error('the throttling proxy gave no CA');
  return ProxiedOperator.start(contender, proxiedKubeConfig(kubeConfig, { server, ca }), proxy);
}

/**
 * One round: the operator starts behind its own proxy and reconciles a first WebApp (its caches
 * synced, its watches open); `settleMs` later the proxy ends every answer in flight (the watches)
 * and answers every request with 429 and `Retry-After: retryAfterSeconds` for `stormMs`, as API
 * Priority and Fairness does under load; 1 s into the storm a second WebApp is created directly on
 * the API server; the clock runs from the storm's end until the operator has created that
 * WebApp's Deployment, which it can only once its watch is back.
 */
export async function stormRound(
  contender: Contender,
  kubeConfig: KubeConfig,
  client: Client,
  namespace: string,
  storm: { readonly ms: number; readonly retryAfterSeconds: number },
  capMs: number,
  settleMs: number,
): Promise<StormRun> {
  const operator = await reconcilingOperator(client, namespace, () =>
    throttledOperator(contender, kubeConfig),
  );
  const turnedAway = (): number => operator.proxy.requests.filter((r) => r.endsWith(' 429')).length;
  try {
    await sleep(settleMs);
    operator.proxy.throttle(storm.retryAfterSeconds);
    await sleep(CREATE_AFTER_MS);
    await client.create(webApp(namespace, 1));
    await sleep(storm.ms - CREATE_AFTER_MS);
    operator.proxy.release();
    const endedAt = performance.now();
    const during = turnedAway();
    const at = await deployedAt(client, namespace, 1, capMs, operator);
    return {
      name: contender.name,
      stormSeconds: storm.ms / 1000,
      lateSeconds: at === undefined ? undefined : (at - endedAt) / 1000,
      turnedAway: during,
    };
  } finally {
    await operator.stop();
  }
}
