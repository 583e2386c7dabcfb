import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RestRequest, Transport } from '../../../src/runtime/client/transport.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import type { KubeObject } from '../../../src/runtime/api/kube-object.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { runOnTickingClock, shardLease, widgetSharder } from './fake-clock-sharder.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'ring-change-backoff';
const RING = 'cutshort';
const SHARD = shardLabel(RING);
const RETRY = 500;

/**
 * Refuses every PATCH of Widget `locked` (an admission policy would), and on the first refusal
 * first creates shard c's Lease (a shard joining while the resync writes); other Widget PATCHes
 * wait 1.5 s on the test's clock (a throttled write), so the resync is still running then.
 */
class RefusingTransport implements Transport {
  readonly wholeListsAt: number[] = [];
  joinedAt: number | undefined;
  readonly #inner: Transport;
  readonly #clock: FakeClock;
  readonly #join: () => Promise<void>;
  constructor(inner: Transport, clock: FakeClock, join: () => Promise<void>) {
    this.#inner = inner;
    this.#clock = clock;
    this.#join = join;
  }
  async request<T>(req: RestRequest): Promise<T> {
    if (req.method === 'PATCH' && req.path.includes('/widgets/')) {
      if (/\/widgets\/locked(\?|$)/.test(req.path)) {
        if (this.joinedAt === undefined) {
          this.joinedAt = this.#clock.monotonic();
          await this.#join();
        }
        throw new Error('admission webhook "policy.example.com" denied the request');
      }
      await this.#clock.sleep(1500, req.signal);
    }
    const answer = await this.#inner.request<T>(req);
    if (req.method === 'GET' && /\/widgets(\?|$)/.test(req.path) && !req.path.includes('labelSelector'))
      this.wholeListsAt.push(this.#clock.monotonic());
    return answer;
  }
  stream: Transport['stream'] = (path, signal, accept) => this.#inner.stream(path, signal, accept);
}

const key = (name: string): string => ringKeyOf(WidgetKind, { metadata: { namespace: NAMESPACE, name } });

describe('a resync with a refused write, cut short by a change of the ring', () => {
  const api = ringEnvironment(NAMESPACE);

  it("leaves the new ring's backoff starting afresh", async () => {
    const { env, client } = api;
    const clock = new FakeClock(Date.now());
    const two = new HashRing(['a', 'b']);
    const three = new HashRing(['a', 'b', 'c']);
    // On a live shard where neither ring wants it: each resync drains it (refused).
    const lockedOn = ['a', 'b'].find(
      (s) => s !== two.shardFor(key('locked')) && s !== three.shardFor(key('locked')),
    );
    assert.ok(lockedOn, 'a shard neither ring hashes "locked" to');
    await client.create(shardLease(clock, NAMESPACE, RING, 'a', 'a', 3600));
    await client.create(shardLease(clock, NAMESPACE, RING, 'b', 'b', 3600));
    const widget = (name: string, shard: string): KubeObject =>
      ({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name, namespace: NAMESPACE, labels: { [SHARD]: shard } },
        spec: { size: 1 },
      }) as KubeObject;
    await client.create(widget('locked', lockedOn));
    // Others on the wrong shard of the two: their (throttled) drains follow the refused one.
    for (let i = 0; i < 4; i++) {
      const name = `w-${i}`;
      const wrong = two.shardFor(key(name)) === 'a' ? 'b' : 'a';
      await client.create(widget(name, wrong));
    }
    const transport = new RefusingTransport(transportFor(env.kubeConfig), clock, async () => {
      await client.create(shardLease(clock, NAMESPACE, RING, 'c', 'c', 3600));
    });
    const running = runOnTickingClock(widgetSharder(NAMESPACE, RING, transport, clock, 15_000, RETRY), clock);
    try {
      await eventuallyTrue(() => transport.joinedAt !== undefined, 'the first refusal');
      const joined = transport.joinedAt ?? 0;
      await eventuallyTrue(() => clock.monotonic() - joined >= 40_000, '40 s after the join', 60_000);
      const after = transport.wholeListsAt.filter((t) => t > joined).map((t) => t - joined);
      const gaps = after.slice(1).map((t, i) => t - (after[i] ?? t));
      // Afresh: 1 s (cut to the retry period: the follow-up), 2 s, 4 s, 8 s.
      assert.ok(
        (gaps[1] ?? 0) < 3000,
        `the new ring's whole lists came ${gaps.join(', ')} ms apart: its backoff did not start afresh`,
      );
    } finally {
      await running.stop();
    }
  });
});
