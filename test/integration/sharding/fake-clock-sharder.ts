import type { V1Lease } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { MicroTimeDate } from '../../../src/runtime/api/micro-time-date.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import type { RestRequest, Transport } from '../../../src/runtime/client/transport.ts';
import type { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { createLogger, silentLogger } from '../../../src/runtime/log/logger.ts';
import { RING_LABEL } from '../../../src/runtime/sharding/shard-labels.ts';
import { Sharder } from '../../../src/runtime/sharding/sharder.ts';
import { WidgetKind } from '../controller/support.ts';

/** A shard Lease of `ring` in `namespace` held by `holder` from the clock's now for `seconds`. */
export function shardLease(
  clock: FakeClock,
  namespace: string,
  ring: string,
  name: string,
  holder: string,
  seconds: number,
): V1Lease {
  const now = new MicroTimeDate(clock.now());
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace, labels: { [RING_LABEL]: ring } },
    spec: { holderIdentity: holder, leaseDurationSeconds: seconds, acquireTime: now, renewTime: now },
  };
}

/** The sharder of `ring`'s Widgets of `namespace` on `clock`, through `transport`. */
export function widgetSharder(
  namespace: string,
  ring: string,
  transport: Transport,
  clock: FakeClock,
  leaseDuration: number,
  retryPeriod = 500,
): Sharder {
  return new Sharder({
    ring,
    kinds: [{ kind: WidgetKind, controlled: [] }],
    leaseNamespace: namespace,
    namespace,
    client: newClient({ transport }),
    transport,
    retryPeriod,
    leaseDuration,
    resyncPeriod: 600_000,
    concurrentMoves: 1,
    clock,
    logger: process.env['DEBUG_SHARDER'] ? createLogger({ level: 'debug' }) : silentLogger,
    registry: new Registry(),
  });
}

/** Runs `sharder` while `clock` moves ten times as fast as real time, until `stop`. */
export function runOnTickingClock(sharder: Sharder, clock: FakeClock): { stop: () => Promise<void> } {
  const stop = new AbortController();
  const run = sharder.run(stop.signal);
  const ticking = setInterval(() => clock.advance(100), 10);
  return {
    // The clock ticks until the sharder returned: a write of it may be waiting on the clock.
    stop: async () => {
      stop.abort();
      await run;
      clearInterval(ticking);
    },
  };
}

/**
 * The real transport, but a Widget PATCH first waits `throttle` ms on the test's clock, as one
 * answered 429 with a Retry-After does, and is sent only if its signal has not aborted by then;
 * and `afterList` runs between the server's answer to a resync's list and the sharder reading it.
 */
export class ThrottledTransport implements Transport {
  throttle = 0;
  sent = 0;
  /** Widget PATCHes whose signal aborted before they were sent: writes the sharder gave up. */
  abandoned = 0;
  /** Lists of every Widget (not by label) answered. */
  wholeLists = 0;
  /** When each Widget PATCH was sent, on the test's monotonic clock. */
  readonly sentAt: number[] = [];
  readonly #inner: Transport;
  readonly #clock: FakeClock;

  constructor(inner: Transport, clock: FakeClock) {
    this.#inner = inner;
    this.#clock = clock;
  }

  /** Runs once after the next answer to a list of every Widget (the sharder's resync). */
  afterList: (() => Promise<void>) | undefined;
  /** While set, every list of Widgets (whole, or by label) fails after the server answered, as one cut off does. */
  failLists = false;

  async request<T>(req: RestRequest): Promise<T> {
    if (req.method === 'PATCH' && req.path.includes('/widgets/')) {
      await this.#clock.sleep(this.throttle, req.signal);
      if (req.signal?.aborted) this.abandoned++;
      req.signal?.throwIfAborted();
      this.sent++;
      this.sentAt.push(this.#clock.monotonic());
    }
    const answer = await this.#inner.request<T>(req);
    const list = req.method === 'GET' && /\/widgets(\?|$)/.test(req.path);
    if (list && this.failLists) {
      if (!req.path.includes('labelSelector')) this.wholeLists++;
      throw new Error('the connection broke while the list was read');
    }
    if (list && !req.path.includes('labelSelector')) {
      this.wholeLists++;
      const hook = this.afterList;
      this.afterList = undefined;
      // As a request still under way would be, the list is cut short by its signal.
      await Promise.race([hook?.(), aborted(req.signal)]);
      req.signal?.throwIfAborted();
    }
    return answer;
  }

  stream: Transport['stream'] = (path, signal, accept) => this.#inner.stream(path, signal, accept);
}

/** Resolves once `signal` aborts; never without one. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
}
