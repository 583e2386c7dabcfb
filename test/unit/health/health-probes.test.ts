import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HealthProbes } from '../../../src/runtime/health/health-probes.ts';
import type { RunningServer } from '../../../src/runtime/server/http-server.ts';

interface Answer {
  readonly status: number;
  readonly body: string;
}

describe('health probes over HTTP', () => {
  const probes = new HealthProbes();
  let synced = false;
  let server: RunningServer;
  const get = async (path: string): Promise<Answer> => {
    const res = await fetch(`${server.url}${path}`);
    return { status: res.status, body: await res.text() };
  };

  before(async () => {
    probes.addHealthzCheck('ping', () => undefined);
    probes.addReadyzCheck('informers', () => {
      if (!synced) throw new Error('caches not synced');
    });
    probes.addReadyzCheck('webhooks', async () => undefined);
    server = await probes.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => server.close());

  it('fails /readyz until its check passes, then passes', async () => {
    assert.deepEqual(await get('/readyz'), {
      status: 500,
      body: '[-]informers failed: reason withheld\n[+]webhooks ok\nreadyz check failed\n',
    });
    synced = true;
    assert.deepEqual(await get('/readyz'), { status: 200, body: 'ok' });
    synced = false;
  });

  it('lists every check with ?verbose, and skips excluded ones', async () => {
    synced = true;
    assert.deepEqual(await get('/readyz?verbose'), {
      status: 200,
      body: '[+]informers ok\n[+]webhooks ok\nreadyz check passed\n',
    });
    synced = false;
    assert.deepEqual(await get('/readyz?verbose&exclude=informers&exclude=nope'), {
      status: 200,
      body: '[+]informers excluded: ok\n[+]webhooks ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n',
    });
  });

  it('runs one check at /readyz/<name>, telling the failure reason', async () => {
    assert.deepEqual(await get('/readyz/informers'), {
      status: 500,
      body: 'internal server error: caches not synced\n',
    });
    assert.deepEqual(await get('/readyz/webhooks'), { status: 200, body: 'ok' });
    assert.equal((await get('/readyz/unknown')).status, 404);
  });

  it('serves /healthz apart from /readyz, and 404 elsewhere', async () => {
    assert.deepEqual(await get('/healthz'), { status: 200, body: 'ok' });
    assert.deepEqual(await get('/healthz/ping'), { status: 200, body: 'ok' });
    assert.equal((await get('/metrics')).status, 404);
  });

  it('refuses a second check of the same name', () => {
    assert.throws(() => probes.addReadyzCheck('informers', () => undefined), /already exists/);
  });
});

describe('health probes without checks', () => {
  it('answer ok with an implicit ping check, as controller-runtime does', async () => {
    const server = await new HealthProbes().listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${server.url}/healthz?verbose`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), '[+]ping ok\nhealthz check passed\n');
    } finally {
      await server.close();
    }
  });
});
