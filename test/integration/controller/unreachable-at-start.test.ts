import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { restConfigOf } from '../../../src/runtime/config/rest-config-source.ts';
import { ApiServerUnreachableError } from '../../../src/runtime/manager/api-server-unreachable-error.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { SeverableProxy } from '../../support/severable-proxy.ts';
import { createConfigMaps, testManager, uniqueNamespace } from './support.ts';

/** How long the API server stays unreachable before the proxy to it starts accepting. */
const DOWN_MS = 4000;
/** Room for a loaded machine beyond a bound: scheduling, TLS, a list. */
const SLACK_MS = 5000;

// A node up before its control plane: the manager starts while nothing accepts connections at
// the API server's address. It waits within cacheSyncTimeout, as its caches' lists would.
describe('a manager started while the API server is unreachable', () => {
  let env: Environment;
  const proxies: SeverableProxy[] = [];
  before(async () => {
    env = await startEnvironment();
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await env.stop();
  });

  /** A loopback address nothing listens on (yet): connections to it are refused. */
  const refusingAddress = async (): Promise<{ url: string; port: number }> => {
    const probe = await SeverableProxy.start(env.server);
    const { url } = probe;
    await probe.close();
    return { url, port: Number(new URL(url).port) };
  };
  const managerAt = (url: string, cacheSyncTimeout: number, namespace: string): Promise<Manager> =>
    testManager(env, {
      kubeConfig: { ...restConfigOf(env.kubeConfig), server: url },
      cacheSyncTimeout,
      namespace,
    });

  it('waits for the API server, and starts its controllers once it answers', async () => {
    const ns = uniqueNamespace('unreachable');
    await createConfigMaps(env, ns, ['a', 'b']);
    const { url, port } = await refusingAddress();
    const mgr = await managerAt(url, DOWN_MS + 30_000, ns);
    const reconciled = new Set<string>();
    mgr
      .controller()
      .for(ConfigMapKind)
      .complete({
        reconcile: async (req) => {
          reconciled.add(req.name);
          return {};
        },
      });
    const abort = new AbortController();
    let ended: unknown = 'running';
    const run = mgr.start(abort.signal).then(
      () => (ended = 'returned'),
      (err: unknown) => (ended = err),
    );
    try {
      await sleep(DOWN_MS);
      assert.equal(ended, 'running', 'start() neither rejects nor returns while the server is unreachable');
      assert.equal(reconciled.size, 0);
      const readyz = await fetch(`${mgr.healthProbeUrl}/readyz`);
      assert.equal(readyz.status, 500, 'not ready while it waits');

      proxies.push(await SeverableProxy.start(env.server, undefined, port));
      await eventuallyTrue(
        () => reconciled.has('a') && reconciled.has('b'),
        'every ConfigMap reconciled once the server answers',
        30_000 + SLACK_MS,
      );
      assert.equal((await fetch(`${mgr.healthProbeUrl}/readyz`)).status, 200);
    } finally {
      abort.abort();
      await run;
    }
    assert.equal(ended, 'returned');
  });

  it('gives up after cacheSyncTimeout when the server never answers, saying so', async () => {
    const { url } = await refusingAddress();
    const budget = 3000;
    const mgr = await managerAt(url, budget, uniqueNamespace('never'));
    mgr
      .controller()
      .for(ConfigMapKind)
      .complete({ reconcile: async () => ({}) });
    const started = performance.now();
    await assert.rejects(mgr.start(new AbortController().signal), (err: unknown) => {
      assert.ok(err instanceof ApiServerUnreachableError, String(err));
      assert.match(err.message, /could not be reached within cacheSyncTimeout \(3000 ms\).*ECONNREFUSED/);
      return true;
    });
    const took = performance.now() - started;
    assert.ok(took >= budget - 100 && took < budget + SLACK_MS, `gave up after ${took} ms`);
  });

  it('gives up after cacheSyncTimeout when the server takes connections and never answers', async () => {
    // What a hung API server, or a proxy whose upstream is gone, looks like: TLS never starts.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const budget = 3000;
      const mgr = await managerAt(`https://127.0.0.1:${port}`, budget, uniqueNamespace('silent'));
      mgr
        .controller()
        .for(ConfigMapKind)
        .complete({ reconcile: async () => ({}) });
      const started = performance.now();
      await assert.rejects(mgr.start(new AbortController().signal), (err: unknown) => {
        assert.ok(err instanceof ApiServerUnreachableError, String(err));
        assert.match(err.message, /could not be reached within cacheSyncTimeout \(3000 ms\)/);
        return true;
      });
      const took = performance.now() - started;
      assert.ok(took >= budget - 100 && took < budget + SLACK_MS, `gave up after ${took} ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
