import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { isRequestTimeout, RequestTimeoutError } from '../../../src/runtime/client/request-timeout-error.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { answer, LocalPeer, until } from './local-peer.ts';

/** Whether a promise has settled yet, as a test reads it between steps of the clock. */
function settled(promise: Promise<unknown>): () => boolean {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  return () => done;
}

describe('every request but a watch has a timeout', () => {
  let peer: LocalPeer;

  before(async () => {
    peer = await LocalPeer.start((req, res) => {
      // /silent is accepted and never answered; /stalled answers its headers and half a body.
      if (req.url?.startsWith('/silent')) return;
      if (req.url?.startsWith('/stalled')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items": [');
        return;
      }
      if (req.url?.includes('watch=1')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('');
        return;
      }
      answer(res, 200, { kind: 'ConfigMap' });
    });
  });
  after(() => peer.close());

  it('a request the peer accepts and never answers fails with a RequestTimeoutError at the timeout', async () => {
    const clock = new FakeClock(0);
    const transport = transportFor(peer.kubeConfig, { requestTimeoutMs: 5000, clock });
    const before = peer.requests;
    const pending = transport.request({ method: 'GET', path: '/silent/a' });
    const isSettled = settled(pending);
    await until(() => peer.requests === before + 1, 'the request to reach the peer');
    clock.advance(4999);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(isSettled(), false, 'not before the timeout');
    clock.advance(1);
    const err = await pending.then(
      () => assert.fail('the request resolved'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof RequestTimeoutError);
    assert.equal(isRequestTimeout(err), true);
    assert.match(err.message, /^GET \/silent\/a: no answer within 5000 ms/);
  });

  it('with the system clock a small timeout fails the request with a RequestTimeoutError', async () => {
    const transport = transportFor(peer.kubeConfig, { requestTimeoutMs: 50 });
    await assert.rejects(
      transport.request({ method: 'POST', path: '/silent/b', body: {} }),
      RequestTimeoutError,
    );
  });

  it('an answer whose body stops coming times out too', async () => {
    const transport = transportFor(peer.kubeConfig, { requestTimeoutMs: 50 });
    await assert.rejects(transport.request({ method: 'GET', path: '/stalled' }), RequestTimeoutError);
  });

  it("the caller's own abort is reported as an abort, not as a timeout", async () => {
    const transport = transportFor(peer.kubeConfig, { requestTimeoutMs: 60_000 });
    const abort = new AbortController();
    const before = peer.requests;
    const pending = transport.request({ method: 'GET', path: '/silent/c', signal: abort.signal });
    await until(() => peer.requests === before + 1, 'the request to reach the peer');
    abort.abort();
    await assert.rejects(pending, (err: unknown) => err instanceof Error && err.name === 'AbortError');
  });

  it('an answered request leaves no timer behind', async () => {
    const clock = new FakeClock(0);
    const transport = transportFor(peer.kubeConfig, { requestTimeoutMs: 5000, clock });
    assert.deepEqual(await transport.request({ method: 'GET', path: '/ok' }), { kind: 'ConfigMap' });
    assert.equal(clock.sleepers, 0);
  });

  it('a watch whose response headers never come fails with a RequestTimeoutError at the timeout', async () => {
    const clock = new FakeClock(0);
    const transport = transportFor(peer.kubeConfig, { requestTimeoutMs: 5000, clock });
    const before = peer.requests;
    const pending = transport.stream('/silent/configmaps?watch=1', new AbortController().signal);
    const isSettled = settled(pending);
    await until(() => peer.requests === before + 1, 'the watch to reach the peer');
    clock.advance(4999);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(isSettled(), false, 'not before the timeout');
    clock.advance(1);
    await assert.rejects(pending, RequestTimeoutError);
  });

  it('a watch whose headers came is not bounded by the request timeout', async () => {
    const clock = new FakeClock(0);
    const transport = transportFor(peer.kubeConfig, { requestTimeoutMs: 5000, clock });
    const abort = new AbortController();
    const res = await transport.stream('/api/v1/configmaps?watch=1', abort.signal);
    assert.equal(clock.sleepers, 0, 'no timer was set for it');
    clock.advance(60_000);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(res.destroyed, false);
    abort.abort();
    res.destroy();
  });
});
