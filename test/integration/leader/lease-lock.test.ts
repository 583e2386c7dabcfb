import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { test } from 'node:test';
import { MicroTimeDate } from '../../../src/runtime/api/micro-time-date.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { RequestTimeoutError } from '../../../src/runtime/client/request-timeout-error.ts';
import { transportFor, type RestRequest, type Transport } from '../../../src/runtime/client/transport.ts';
import type { LeaderElectionRecord } from '../../../src/runtime/leader/leader-election-record.ts';
import { leaseLock, type LeaseLock } from '../../../src/runtime/leader/lease-lock.ts';
import { suiteEnvironment } from '../../support/suite-environment.ts';

const MARK = 'example.com/holder-process';
const signal = (): AbortSignal => AbortSignal.timeout(10_000);

const api = suiteEnvironment();

/** A transport whose next write reaches the API server, but whose answer is lost (a timeout). */
class LosingTransport implements Transport {
  readonly #inner: Transport;
  #loseNext = false;

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  loseNextWriteAnswer(): void {
    this.#loseNext = true;
  }

  async request<T>(req: RestRequest): Promise<T> {
    const answer = await this.#inner.request<T>(req);
    if (this.#loseNext && req.method !== 'GET') {
      this.#loseNext = false;
      throw new RequestTimeoutError(`${req.method} ${req.path}`, 1);
    }
    return answer;
  }

  stream(path: string, streamSignal: AbortSignal, accept?: string): Promise<Readable> {
    return this.#inner.stream(path, streamSignal, accept);
  }
}

function record(holderIdentity: string, renewTime: number): LeaderElectionRecord {
  return {
    holderIdentity,
    leaseDurationSeconds: 15,
    acquireTime: 1_000_000,
    renewTime,
    leaderTransitions: 0,
  };
}

/** The lock of process `p1` on Lease `name`, held under the shared name `shard`; the Lease created. */
async function heldLock(name: string, transport?: Transport): Promise<LeaseLock> {
  const lock = leaseLock(transport ? newClient({ transport }) : api.client, 'default', name, {
    sharedHolder: { holder: 'shard', mark: MARK },
  });
  await lock.create(record('p1', Date.now()), signal());
  return lock;
}

test('a shared-holder Lease reads as held by the process whose mark it carries', async () => {
  const lock = await heldLock('marked');
  const lease = await api.client.direct().get(LeaseKind, { namespace: 'default', name: 'marked' });
  assert.equal(lease?.spec?.holderIdentity, 'shard');
  assert.equal(lease?.metadata?.annotations?.[MARK], 'p1');
  assert.equal((await lock.get(signal()))?.record.holderIdentity, 'p1');
  // Another lock (another process) reads that process as the holder.
  const other = leaseLock(api.client, 'default', 'marked', { sharedHolder: { holder: 'shard', mark: MARK } });
  assert.equal((await other.get(signal()))?.record.holderIdentity, 'p1');
});

test('renewed by a writer that keeps the mark, the Lease is no longer held by the marked process', async () => {
  const lock = await heldLock('kept-mark');
  const lease = await api.client.direct().get(LeaseKind, { namespace: 'default', name: 'kept-mark' });
  assert.ok(lease?.spec);
  // As client-go's LeaseLock renews: the Lease as read, a new renew time.
  await api.client.update({
    ...lease,
    spec: { ...lease.spec, renewTime: new MicroTimeDate(Date.now() + 1000) },
  });
  assert.equal((await lock.get(signal()))?.record.holderIdentity, 'shard');
});

test("others' labels and annotations on the Lease leave it held by the marked process", async () => {
  const lock = await heldLock('labelled');
  const lease = await api.client.direct().get(LeaseKind, { namespace: 'default', name: 'labelled' });
  assert.ok(lease);
  // The sharder's state label, a range member's published ranges.
  await api.client.patch(lease, mergePatch({ metadata: { labels: { state: 'ready' } } }));
  await api.client.patch(lease, mergePatch({ metadata: { annotations: { ranges: '0-1' } } }));
  assert.equal((await lock.get(signal()))?.record.holderIdentity, 'p1');
});

test("a renewal refused because another's label was written first still reads as the process", async () => {
  const lock = await heldLock('raced');
  const current = await lock.get(signal());
  assert.ok(current);
  const lease = await api.client.direct().get(LeaseKind, { namespace: 'default', name: 'raced' });
  assert.ok(lease);
  await api.client.patch(lease, mergePatch({ metadata: { labels: { state: 'ready' } } }));
  await assert.rejects(
    lock.update(record('p1', Date.now() + 1000), current.resourceVersion, signal()),
    /Conflict|409/,
  );
  assert.equal((await lock.get(signal()))?.record.holderIdentity, 'p1');
});

test('a renewal whose answer was lost still reads as the process that sent it', async () => {
  const transport = new LosingTransport(transportFor(api.env.kubeConfig));
  const lock = await heldLock('lost-answer', transport);
  const current = await lock.get(signal());
  assert.ok(current);
  transport.loseNextWriteAnswer();
  await assert.rejects(
    lock.update(record('p1', Date.now() + 1000), current.resourceVersion, signal()),
    RequestTimeoutError,
  );
  const after = await lock.get(signal());
  assert.notEqual(after?.resourceVersion, current.resourceVersion, 'the renewal reached the API server');
  assert.equal(after?.record.holderIdentity, 'p1');
});

test('a renewal whose answer was lost, then one refused, still reads as the process that sent them', async () => {
  const transport = new LosingTransport(transportFor(api.env.kubeConfig));
  const lock = await heldLock('lost-then-refused', transport);
  const current = await lock.get(signal());
  assert.ok(current);
  transport.loseNextWriteAnswer();
  await assert.rejects(
    lock.update(record('p1', Date.now() + 1000), current.resourceVersion, signal()),
    RequestTimeoutError,
  );
  const landed = await lock.get(signal());
  assert.ok(landed);
  // Another writer's label lands between the read and the next renewal, which is refused.
  const lease = await api.client.direct().get(LeaseKind, { namespace: 'default', name: 'lost-then-refused' });
  assert.ok(lease);
  await api.client.patch(lease, mergePatch({ metadata: { labels: { state: 'ready' } } }));
  await assert.rejects(
    lock.update(record('p1', Date.now() + 2000), landed.resourceVersion, signal()),
    /Conflict|409/,
  );
  assert.equal((await lock.get(signal()))?.record.holderIdentity, 'p1');
});

test('each write sets the renew time mark to the renewTime it writes; a released Lease has neither mark', async () => {
  const RENEWED = 'example.com/holder-renew-time';
  const lock = leaseLock(api.client, 'default', 'renew-mark', {
    sharedHolder: { holder: 'shard', mark: MARK, renewTimeMark: RENEWED },
  });
  const read = async (): Promise<{ renewTime?: string; marked?: string; process?: string }> => {
    const lease = await api.client.direct().get(LeaseKind, { namespace: 'default', name: 'renew-mark' });
    return {
      ...(lease?.spec?.renewTime ? { renewTime: String(lease.spec.renewTime) } : {}),
      ...(lease?.metadata?.annotations?.[RENEWED] ? { marked: lease.metadata.annotations[RENEWED] } : {}),
      ...(lease?.metadata?.annotations?.[MARK] ? { process: lease.metadata.annotations[MARK] } : {}),
    };
  };
  const created = await lock.create(record('p1', Date.now()), signal());
  const first = await read();
  assert.ok(first.marked !== undefined && Date.parse(first.marked) === Date.parse(first.renewTime ?? ''));
  const renewed = await lock.update(record('p1', Date.now() + 1000), created.resourceVersion, signal());
  const second = await read();
  assert.notEqual(second.renewTime, first.renewTime);
  assert.ok(second.marked !== undefined && Date.parse(second.marked) === Date.parse(second.renewTime ?? ''));
  await lock.update(record('', Date.now() + 2000), renewed.resourceVersion, signal());
  const released = await read();
  assert.equal(released.process, undefined);
  assert.equal(released.marked, undefined);
});

test('a Lease the sharder took over reads as held by the sharder, not a twin', async () => {
  const lock = await heldLock('taken-over');
  const lease = await api.client.direct().get(LeaseKind, { namespace: 'default', name: 'taken-over' });
  assert.ok(lease?.spec);
  // The sharder keeps the Lease's metadata, the mark included, and writes itself as the holder.
  await api.client.update({ ...lease, spec: { ...lease.spec, holderIdentity: 'shardlease-controller' } });
  assert.equal((await lock.get(signal()))?.record.holderIdentity, 'shardlease-controller');
});
