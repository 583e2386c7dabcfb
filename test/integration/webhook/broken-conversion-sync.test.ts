import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { objectRef } from '../../../src/runtime/client/object-key.ts';
import { CacheSyncTimeoutError } from '../../../src/runtime/manager/cache-sync-timeout-error.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import type { SpokeConversion } from '../../../src/runtime/webhook/conversion.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';
import { eventually, eventuallyTrue } from '../../support/eventually.ts';
import { testManager } from '../controller/support.ts';
import {
  installCrdPointingAt,
  WebAppKind,
  webAppV2Conversion,
  WebAppV2Kind,
  type WebApp,
  type WebAppV2,
} from './webapp.ts';

const NAMESPACE = 'default';
const CACHE_SYNC_TIMEOUT_MS = 4000;
/** What a start-up that fails may take beyond `cacheSyncTimeout`: the servers' closing. */
const STOP_MARGIN_MS = 3000;

/** WebApp v1 ↔ v2, except that converting an object labelled `poison` throws. */
const poisonable: SpokeConversion<WebApp, WebAppV2> = {
  convertTo: (obj) => webAppV2Conversion.convertTo(obj),
  convertFrom(obj) {
    if (obj.metadata?.labels?.['poison']) throw new Error(`cannot convert ${obj.metadata.name}`);
    return webAppV2Conversion.convertFrom(obj);
  },
};

// The informer of a converted version (v2; v1 is stored) at start-up, while the API server's watch
// cache of that version cannot convert what was written since it last could: its resourceVersion-0
// list answers the old state, a consistent read fails. Synced means at least the state of when
// the informer started, so the manager must not start its controllers on the old one.
describe('a manager whose conversion webhook is broken at start-up', () => {
  let env: Environment;
  let client: Client;
  const server = new WebhookServer({ port: 0, host: '127.0.0.1', registry: new Registry() });
  server.registerConversion(WebAppKind, { v2: poisonable });

  before(async () => {
    env = await startEnvironment();
    client = newClient({ kubeConfig: env.kubeConfig });
    await server.start();
    await installCrdPointingAt(env, server);
  });
  let serving = true;
  after(async () => {
    if (serving) await server.close();
    await env.stop();
  });

  const createV1 = (name: string, labels?: Record<string, string>): Promise<WebApp> =>
    client.create<WebApp>({
      apiVersion: WebAppKind.apiVersion,
      kind: 'WebApp',
      metadata: { name, namespace: NAMESPACE, ...(labels ? { labels } : {}) },
      spec: { replicas: 1, image: 'nginx' },
    });

  /** A manager reconciling v2 WebApps, recording what it reconciled. */
  const v2Manager = async (): Promise<{ mgr: Manager; reconciled: Set<string> }> => {
    const mgr = await testManager(env, { cacheSyncTimeout: CACHE_SYNC_TIMEOUT_MS });
    const reconciled = new Set<string>();
    mgr
      .controller()
      .for(WebAppV2Kind)
      .complete({
        reconcile: async (req) => {
          reconciled.add(req.name);
          return {};
        },
      });
    return { mgr, reconciled };
  };

  /**
   * Starts `mgr` and asserts it rejects with CacheSyncTimeoutError within the timeout, never ready
   * and without reconciling, naming the v2 WebApp.
   */
  const assertRefusesToStart = async (mgr: Manager, reconciled: Set<string>): Promise<void> => {
    const started = performance.now();
    // A manager that started anyway is stopped after the bound, and its start resolves.
    const start = mgr.start(AbortSignal.timeout(CACHE_SYNC_TIMEOUT_MS + STOP_MARGIN_MS));
    const readyCodes: number[] = [];
    let settled = false;
    const polling = (async () => {
      while (!settled) {
        if (mgr.healthProbeUrl)
          readyCodes.push((await fetch(`${mgr.healthProbeUrl}/readyz`).catch(() => undefined))?.status ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await assert.rejects(
      start.finally(() => {
        settled = true;
      }),
      (err: unknown) => {
        assert.ok(err instanceof CacheSyncTimeoutError, String(err));
        assert.deepEqual(
          err.unsynced.map((u) => u.kind),
          ['webhook.tsoperator.dev/v2/WebApp'],
        );
        return true;
      },
      'start() rejects',
    );
    const took = performance.now() - started;
    await polling;
    assert.ok(took < CACHE_SYNC_TIMEOUT_MS + STOP_MARGIN_MS, `start-up failed after ${took} ms`);
    assert.ok(
      readyCodes.some((code) => code === 500),
      `readyz was polled: ${readyCodes.join(',')}`,
    );
    assert.ok(!readyCodes.includes(200), `readyz never passes: ${readyCodes.join(',')}`);
    assert.deepEqual([...reconciled], [], 'no controller started');
  };

  it('syncs and reconciles every object while conversion works', async () => {
    for (const name of ['a', 'b', 'c']) await createV1(name);
    const { mgr, reconciled } = await v2Manager();
    const abort = new AbortController();
    const run = mgr.start(abort.signal);
    try {
      await eventuallyTrue(() => ['a', 'b', 'c'].every((n) => reconciled.has(n)), 'every WebApp reconciled');
      assert.equal((await fetch(`${mgr.healthProbeUrl}/readyz`)).status, 200);
    } finally {
      abort.abort();
      await run;
    }
  });

  it('refuses to start when the conversion of an object written since throws', async () => {
    await createV1('poisoned', { poison: 'true' });
    const { mgr, reconciled } = await v2Manager();
    await assertRefusesToStart(mgr, reconciled);
  });

  it('refuses to start when the conversion webhook is down', async () => {
    await client.delete(objectRef(WebAppKind, { namespace: NAMESPACE, name: 'poisoned' }));
    // The watch cache of v2 converts everything again: consistent v2 reads succeed.
    await eventually(
      async () =>
        (
          await client
            .direct()
            .list(WebAppV2Kind, { namespace: NAMESPACE })
            .catch(() => undefined)
        )?.items,
      'v2 readable again',
    );
    await server.close();
    serving = false;
    await createV1('late');
    const { mgr, reconciled } = await v2Manager();
    await assertRefusesToStart(mgr, reconciled);
  });
});
