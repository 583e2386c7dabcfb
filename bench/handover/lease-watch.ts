import type { KubeConfig, V1Lease } from '@kubernetes/client-node';
import type { Json } from '../../src/runtime/api/json.ts';
import { newCache } from '../../src/runtime/cache/cache.ts';
import { LeaseKind } from '../../src/runtime/client/kinds.ts';
import { Waiters } from './waiters.ts';

/** One state of a Lease as the watch delivered it. */
export interface LeaseRecord {
  /** '' once released. */
  readonly holder: string;
  /** The `acquireTime` the writer stamped (unix ms): when the holder acquired, or when it released. */
  readonly acquiredAt: number;
  /** When the benchmark saw it (unix ms). */
  readonly seenAt: number;
}

/** Every record each Lease of a namespace went through, in order, from a watch. */
export interface LeaseHistory {
  /** The records of Lease `name` so far. */
  records(name: string): readonly LeaseRecord[];
  /** Resolves at the first record of `name` after `index` matching `match`, or undefined after `timeoutMs`. */
  next(
    name: string,
    index: number,
    match: (r: LeaseRecord) => boolean,
    timeoutMs: number,
  ): Promise<LeaseRecord | undefined>;
}

/**
 * Watches the Leases of `namespace` until `signal` aborts. A watch delivers each write of a Lease
 * as its own event, so the release record a stopping leader writes is seen even when the next
 * leader overwrites it a moment later.
 */
export async function watchLeases(
  kubeConfig: KubeConfig,
  namespace: string,
  signal: AbortSignal,
): Promise<LeaseHistory> {
  const histories = new Map<string, LeaseRecord[]>();
  const waiters = new Waiters();
  const note = (lease: Readonly<Json<V1Lease>>): void => {
    const name = lease.metadata?.name ?? '';
    const acquireTime = lease.spec?.acquireTime;
    const record: LeaseRecord = {
      holder: lease.spec?.holderIdentity ?? '',
      acquiredAt: acquireTime === undefined ? NaN : Date.parse(acquireTime),
      seenAt: Date.now(),
    };
    const history = histories.get(name) ?? [];
    history.push(record);
    histories.set(name, history);
    waiters.wake();
  };
  const cache = newCache({ kubeConfig, namespaces: [namespace], resyncPeriodMs: 0 });
  cache.informerFor(LeaseKind).addEventHandler({ onAdd: note, onUpdate: (_old, lease) => note(lease) });
  cache.start(signal);
  await cache.waitForCacheSync(signal);
  const records = (name: string): readonly LeaseRecord[] => histories.get(name) ?? [];
  return {
    records,
    next: async (name, index, match, timeoutMs) => {
      const found = (): LeaseRecord | undefined => records(name).slice(index).find(match);
      await waiters.until(() => found() !== undefined, timeoutMs);
      return found();
    },
  };
}
