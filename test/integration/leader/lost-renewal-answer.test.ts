import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { test } from 'node:test';
import { newClient } from '../../../src/runtime/client/client.ts';
import { ConnectionLostError } from '../../../src/runtime/client/connection-lost-error.ts';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { transportFor, type RestRequest, type Transport } from '../../../src/runtime/client/transport.ts';
import { LeaderElector, type LeadershipEnd } from '../../../src/runtime/leader/leader-elector.ts';
import { leaseLock } from '../../../src/runtime/leader/lease-lock.ts';
import { HOLDER_PROCESS_ANNOTATION } from '../../../src/runtime/sharding/shard-labels.ts';
import { suiteEnvironment } from '../../support/suite-environment.ts';

const MARK = HOLDER_PROCESS_ANNOTATION;

const api = suiteEnvironment();

/**
 * Renewals of Lease `name` (PUTs) go through; once armed, the next one reaches the API server but
 * its answer is lost (a connection that broke after the server took it), and the one after is
 * refused by the server before it does anything: here a 409, because another writer labelled the
 * Lease between the renewal's read and its write (the sharder's state label, a range member's
 * annotation), or `refuse` = 'unavailable' for a write the transport could not send at all.
 */
class FlakyRenewals implements Transport {
  readonly #inner: Transport;
  readonly #name: string;
  #step: 'off' | 'lose' | 'refuse' = 'off';
  readonly log: string[] = [];
  refuse: 'conflict' | 'unavailable' = 'conflict';

  constructor(inner: Transport, name: string) {
    this.#inner = inner;
    this.#name = name;
  }

  arm(): void {
    this.#step = 'lose';
  }

  async request<T>(req: RestRequest): Promise<T> {
    const lease = req.method === 'PUT' && req.path.split('?')[0]?.endsWith(`/leases/${this.#name}`);
    if (!lease || this.#step === 'off') return this.#inner.request<T>(req);
    if (this.#step === 'lose') {
      this.#step = 'refuse';
      await this.#inner.request<T>(req);
      this.log.push('renewal applied, answer lost');
      throw new ConnectionLostError(`PUT ${req.path}`, 'the test broke it');
    }
    this.#step = 'off';
    if (this.refuse === 'unavailable') {
      this.log.push('renewal not sent');
      throw new Error('connect ECONNREFUSED (the test)');
    }
    // Another writer's label lands first: the renewal, with the resourceVersion it read, is refused.
    const current = await api.client.direct().get(LeaseKind, { namespace: 'default', name: this.#name });
    assert.ok(current);
    await api.client.patch(current, mergePatch({ metadata: { labels: { 'example.com/state': 'ready' } } }));
    try {
      return await this.#inner.request<T>(req);
    } finally {
      this.log.push('renewal refused (409)');
    }
  }

  stream(path: string, signal: AbortSignal, accept?: string): Promise<Readable> {
    return this.#inner.stream(path, signal, accept);
  }
}

for (const refuse of ['conflict', 'unavailable'] as const) {
  test(`a shard process alone on its Lease keeps it through a lost answer and then a refused renewal (${refuse})`, async () => {
    const name = `alone-${refuse}`;
    const transport = new FlakyRenewals(transportFor(api.env.kubeConfig), name);
    transport.refuse = refuse;
    const newLeaders: string[] = [];
    let leading = false;
    const elector = new LeaderElector({
      lock: leaseLock(newClient({ transport }), 'default', name, {
        sharedHolder: { holder: name, mark: MARK },
      }),
      identity: 'host_process-1',
      leaseDuration: 4000,
      renewDeadline: 3000,
      retryPeriod: 500,
      callbacks: {
        onStartedLeading: (signal) =>
          new Promise<void>((resolve) => {
            leading = true;
            signal.addEventListener('abort', () => resolve(), { once: true });
          }),
        onNewLeader: (holder) => newLeaders.push(holder),
      },
    });
    const stop = new AbortController();
    const run: Promise<LeadershipEnd> = elector.run(stop.signal);
    while (!leading) await new Promise((r) => setTimeout(r, 50));
    transport.arm();
    // Nobody else writes the Lease's holder or renew time. Give it 6 s: a dozen renewals.
    const end = await Promise.race([run, new Promise((r) => setTimeout(() => r('still leading'), 6000))]);
    const lease = await api.client.direct().get(LeaseKind, { namespace: 'default', name });
    stop.abort();
    await run.catch(() => undefined);
    assert.equal(end, 'still leading', `the process stood down; it saw as holders: ${newLeaders.join(', ')}`);
    assert.deepEqual(newLeaders, ['host_process-1']);
    assert.equal(transport.log.length, 2, `both faults were injected: ${transport.log.join(', ')}`);
    assert.equal(lease?.metadata?.annotations?.[MARK], 'host_process-1');
  });
}
