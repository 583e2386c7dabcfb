import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache } from '../../../src/runtime/cache/cache.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { resourcePath } from '../../../src/runtime/client/resource-path.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';

/** Short, so that a watch restarted for its silence shows within the test: several times over. */
const IDLE_MS = 2000;
/** How long each quiet watch is observed: the probe's two idle timeouts, then four more. */
const QUIET_MS = 6 * IDLE_MS;

// A server without a watch cache for a kind (--watch-cache=false here; some aggregated APIs, a
// resource with its cache turned off) sends no bookmarks: a quiet watch there is silent for
// minutes while healthy. Restarting it for its silence would be churn. Over HTTP/2 the PING
// health check already notices a dead path; over HTTP/1.1 silence means something only where
// bookmarks flow, which is not known at first: the first silent watch is restarted, and when the
// one after it is as silent, without a bookmark, it is left open.
describe('quiet watches on a server that sends no bookmarks', { concurrency: true }, () => {
  let env: Environment;
  const stop = new AbortController();
  before(async () => {
    env = await startEnvironment({ apiServerArgs: ['--watch-cache=false'] });
  });
  after(async () => {
    stop.abort();
    await env.stop();
  });

  const quietWatches = async (ns: string, http2: boolean): Promise<number> => {
    await newClient({ kubeConfig: env.kubeConfig }).create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
    const transport = new ObservedTransport(transportFor(env.kubeConfig, { http2 }));
    const cache = newCache({ transport, namespaces: [ns], watchIdleTimeoutMs: IDLE_MS });
    cache.informerFor(ConfigMapKind);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    const path = resourcePath(ConfigMapKind, ns);
    await eventuallyTrue(() => (transport.watches.get(path) ?? 0) >= 1, 'the first watch');
    await sleep(QUIET_MS);
    return transport.watches.get(path) ?? 0;
  };

  it('keeps one watch over HTTP/2, whose PING checks the path', async () => {
    assert.equal(await quietWatches('quiet-h2', true), 1, 'watch requests while the kind was quiet');
  });

  it('restarts a quiet watch over HTTP/1.1 once, as a probe, and keeps the next one', async () => {
    assert.equal(await quietWatches('quiet-h1', false), 2, 'watch requests while the kind was quiet');
  });
});
