import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ApiError, isServiceUnavailable, isTooManyRequests } from '../../../src/runtime/client/api-error.ts';
import { isApiServerUnreachable } from '../../../src/runtime/client/api-server-unreachable.ts';
import { isConnectionLost } from '../../../src/runtime/client/connection-lost-error.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { answer, LocalPeer, type PeerHandler, until } from './local-peer.ts';

/** A FakeClock that remembers how long each sleep asked for: the waits between attempts show here. */
class RecordingClock extends FakeClock {
  readonly sleeps: number[] = [];
  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return super.sleep(ms, signal);
  }
}

const TOO_MANY = {
  kind: 'Status',
  status: 'Failure',
  reason: 'TooManyRequests',
  code: 429,
  message: 'slow down',
};
const CONFIG_MAP = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };

/** 429 with `retryAfter` for the first `refusals` requests, 200 with a ConfigMap after. */
function throttling(refusals: number, retryAfter = '1'): PeerHandler {
  return (_req, res, { number }) =>
    number <= refusals
      ? answer(res, 429, TOO_MANY, { 'retry-after': retryAfter })
      : answer(res, 200, CONFIG_MAP);
}

describe('the transport honours 429 with Retry-After', () => {
  let peer: LocalPeer | undefined;
  afterEach(() => peer?.close());

  it('waits the Retry-After on the clock, then sends the request again', async () => {
    peer = await LocalPeer.start(throttling(1));
    const p = peer;
    const clock = new RecordingClock(0);
    const pending = transportFor(p.kubeConfig, { clock }).request({ method: 'GET', path: '/api/v1/a' });
    await until(() => clock.sleeps.includes(1000), 'the wait of the Retry-After');
    clock.advance(999);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(p.requests, 1, 'not sent again before the Retry-After passed');
    clock.advance(1);
    assert.deepEqual(await pending, CONFIG_MAP);
    assert.equal(p.requests, 2);
  });

  it('sends a POST again after a 429: the server turned it away before doing anything', async () => {
    const bodies: string[] = [];
    const throttle = throttling(1);
    peer = await LocalPeer.start((req, res, info) => {
      bodies.push(info.body);
      throttle(req, res, info);
    });
    const clock = new RecordingClock(0);
    const pending = transportFor(peer.kubeConfig, { clock }).request({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body: CONFIG_MAP,
    });
    await until(() => clock.sleeps.includes(1000), 'the wait of the Retry-After');
    clock.advance(1000);
    assert.deepEqual(await pending, CONFIG_MAP);
    assert.deepEqual(bodies, [JSON.stringify(CONFIG_MAP), JSON.stringify(CONFIG_MAP)]);
  });

  it('fails at once with the 429 when the Retry-After is beyond maxRetryAfterMs, telling the wait asked for', async () => {
    peer = await LocalPeer.start((_req, res) => answer(res, 429, { ...TOO_MANY }, { 'retry-after': '60' }));
    const transport = transportFor(peer.kubeConfig, {
      maxRetryAfterMs: 10_000,
      clock: new RecordingClock(0),
    });
    const err = await transport.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError && isTooManyRequests(err));
    assert.equal(err.status.details?.retryAfterSeconds, 60);
    assert.equal(peer.requests, 1);
  });

  it('does not retry a 429 without Retry-After', async () => {
    peer = await LocalPeer.start((_req, res) => answer(res, 429, TOO_MANY));
    await assert.rejects(
      transportFor(peer.kubeConfig).request({ method: 'GET', path: '/x' }),
      isTooManyRequests,
    );
    assert.equal(peer.requests, 1);
  });

  it('gives up after maxRetries retries with the last 429', async () => {
    peer = await LocalPeer.start(throttling(Infinity, '0'));
    const transport = transportFor(peer.kubeConfig, { clock: new RecordingClock(0) });
    await assert.rejects(transport.request({ method: 'GET', path: '/x' }), isTooManyRequests);
    assert.equal(peer.requests, 11, 'the first attempt and 10 retries, as client-go');
  });

  it('retries a 503 with Retry-After for a GET, never for a write', async () => {
    const unavailable = { kind: 'Status', reason: 'ServiceUnavailable', code: 503 };
    peer = await LocalPeer.start((_req, res, { number }) =>
      number === 1 || number === 3
        ? answer(res, 503, unavailable, { 'retry-after': '0' })
        : answer(res, 200, CONFIG_MAP),
    );
    const transport = transportFor(peer.kubeConfig, { clock: new RecordingClock(0) });
    assert.deepEqual(await transport.request({ method: 'GET', path: '/x' }), CONFIG_MAP);
    await assert.rejects(
      transport.request({ method: 'PUT', path: '/x', body: CONFIG_MAP }),
      isServiceUnavailable,
    );
    assert.equal(peer.requests, 3);
  });

  it("stops waiting when the caller's signal aborts, and sends nothing more", async () => {
    peer = await LocalPeer.start(throttling(1));
    const clock = new RecordingClock(0);
    const abort = new AbortController();
    const pending = transportFor(peer.kubeConfig, { clock }).request({
      method: 'GET',
      path: '/x',
      signal: abort.signal,
    });
    await until(() => clock.sleeps.includes(1000), 'the wait of the Retry-After');
    abort.abort();
    await assert.rejects(pending, (err: unknown) => err instanceof Error && err.name === 'AbortError');
    assert.equal(peer.requests, 1);
  });
});

describe('a stale kept-alive socket', () => {
  let peer: LocalPeer | undefined;
  afterEach(() => peer?.close());

  /** Answers the first request of each connection; closes the connection on the second unanswered. */
  const closingKeptAlive: PeerHandler = (req, res, { onConnection }) => {
    if (onConnection === 1) return answer(res, 200, CONFIG_MAP);
    req.socket.destroy();
  };

  it('makes a GET go again on a fresh connection', async () => {
    peer = await LocalPeer.start(closingKeptAlive);
    const transport = transportFor(peer.kubeConfig);
    await transport.request({ method: 'GET', path: '/first' });
    // Lets the agent put the socket back in its pool, so that the next request reuses it.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(await transport.request({ method: 'GET', path: '/second' }), CONFIG_MAP);
    assert.deepEqual([peer.requests, peer.connections], [3, 2]);
  });

  it('reopens a watch on a fresh connection', async () => {
    peer = await LocalPeer.start(closingKeptAlive);
    const transport = transportFor(peer.kubeConfig);
    await transport.request({ method: 'GET', path: '/first' });
    await new Promise((resolve) => setImmediate(resolve));
    const res = await transport.stream('/api/v1/configmaps?watch=1', new AbortController().signal);
    res.destroy();
    assert.equal(peer.connections, 2);
  });

  it('fails a POST without sending it again: the server had received it', async () => {
    peer = await LocalPeer.start(closingKeptAlive);
    const transport = transportFor(peer.kubeConfig);
    await transport.request({ method: 'GET', path: '/first' });
    await new Promise((resolve) => setImmediate(resolve));
    // Whether the server did it is unknown: a ConnectionLostError, which the start-up check counts
    // as an unreachable API server, and which a reconcile's backoff retries.
    await assert.rejects(
      transport.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: CONFIG_MAP }),
      (err: unknown) => isConnectionLost(err) && isApiServerUnreachable(err),
    );
    assert.equal(peer.requests, 2, 'the POST reached the peer once');
  });

  it('is told from a fresh connection that fails: that GET is not sent again', async () => {
    peer = await LocalPeer.start((req) => req.socket.destroy());
    await assert.rejects(
      transportFor(peer.kubeConfig).request({ method: 'GET', path: '/x' }),
      (err: unknown) => isConnectionLost(err) && isApiServerUnreachable(err),
    );
    assert.equal(peer.requests, 1);
  });
});
