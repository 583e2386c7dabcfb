import type { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import type { Json } from '../../src/runtime/api/json.ts';
import type { KubeObject } from '../../src/runtime/api/kube-object.ts';
import { newCache } from '../../src/runtime/cache/cache.ts';
import type { Kind } from '../../src/runtime/client/kind.ts';
import { DeploymentKind, ServiceKind } from '../../src/runtime/client/kinds.ts';
import { WebAppKind, type WebApp } from './ts/webapp.ts';

/** When, in `performance.now()` milliseconds, the contender's first write and its last one were seen. */
export interface Convergence {
  readonly firstChildAt: number;
  readonly convergedAt: number;
}

/**
 * Watches one namespace; once the watch has synced, `converged` settles when every WebApp in it
 * has its Deployment, its Service and a status for its current generation. A watch, not polling,
 * so the harness adds no list load of its own to the API server the contenders share.
 */
export async function watchConvergence(
  kubeConfig: KubeConfig,
  namespace: string,
  expected: number,
  signal: AbortSignal,
): Promise<{ readonly converged: Promise<Convergence> }> {
  const cache = newCache({ kubeConfig, namespaces: [namespace], resyncPeriodMs: 0 });
  const deployments = new Set<string>();
  const services = new Set<string>();
  const observed = new Set<string>();
  let firstChildAt: number | undefined;
  let resolve: (c: Convergence) => void = () => undefined;
  const converged = new Promise<Convergence>((ok, fail) => {
    resolve = ok;
    signal.addEventListener('abort', () => fail(signal.reason as Error), { once: true });
  });

  const check = (): void => {
    if (observed.size < expected || deployments.size < expected || services.size < expected) return;
    for (const name of observed) if (!deployments.has(name) || !services.has(name)) return;
    resolve({ firstChildAt: firstChildAt ?? NaN, convergedAt: performance.now() });
  };
  const track = <T extends KubeObject>(
    kind: Kind<T>,
    into: Set<string>,
    done: (obj: Readonly<Json<T>>) => boolean,
  ): void => {
    const isChild = kind !== (WebAppKind as Kind);
    const note = (obj: Readonly<Json<T>>): void => {
      const name = obj.metadata?.name ?? '';
      if (done(obj)) into.add(name);
      else into.delete(name);
      if (isChild) firstChildAt ??= performance.now();
      check();
    };
    cache.informerFor(kind).addEventHandler({
      onAdd: note,
      onUpdate: (_old, obj) => note(obj),
      onDelete: (obj) => into.delete(obj.metadata?.name ?? ''),
    });
  };
  track(DeploymentKind, deployments, () => true);
  track(ServiceKind, services, () => true);
  track(WebAppKind, observed, (app: WebApp) => app.status?.observedGeneration === app.metadata?.generation);
  cache.start(signal);
  await cache.waitForCacheSync(signal);
  return { converged };
}
