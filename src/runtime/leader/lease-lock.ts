import { CoordinationV1Api, V1MicroTime, type KubeConfig, type V1Lease } from '@kubernetes/client-node';
import type { LeaderElectionRecord, VersionedRecord } from './leader-election-record.ts';

/**
 * Where the leader election record lives. Writes carry the resourceVersion that was read, so two
 * candidates racing for the lease cannot both win (optimistic concurrency, as client-go's
 * resourcelock). Every call gives up when `signal` aborts.
 */
export interface LeaseLock {
  /** `namespace/name` of the lock, for logs and the metric label. */
  readonly description: string;
  /** The current record, or undefined when the lock does not exist yet. */
  get(signal: AbortSignal): Promise<VersionedRecord | undefined>;
  create(record: LeaderElectionRecord, signal: AbortSignal): Promise<VersionedRecord>;
  /** Fails (with a 409 Conflict) when the lock changed since `resourceVersion` was read. */
  update(
    record: LeaderElectionRecord,
    resourceVersion: string,
    signal: AbortSignal,
  ): Promise<VersionedRecord>;
}

/**
 * A LeaseLock on the coordination.k8s.io/v1 Lease `namespace/name`.
 *
 * @example
 * ```ts
 * const lock = leaseLock(kubeConfig, 'webapp-system', 'webapp-operator-leader');
 * ```
 */
export function leaseLock(kubeConfig: KubeConfig, namespace: string, name: string): LeaseLock {
  const api = kubeConfig.makeApiClient(CoordinationV1Api);
  return {
    description: `${namespace}/${name}`,
    get: async (signal) => {
      try {
        return versioned(await untilAborted(api.readNamespacedLease({ name, namespace }), signal));
      } catch (err) {
        if (statusCode(err) === 404) return undefined;
        throw err;
      }
    },
    create: async (record, signal) => {
      const body: V1Lease = { metadata: { name, namespace }, spec: leaseSpec(record) };
      return versioned(await untilAborted(api.createNamespacedLease({ namespace, body }), signal));
    },
    update: async (record, resourceVersion, signal) => {
      const body: V1Lease = { metadata: { name, namespace, resourceVersion }, spec: leaseSpec(record) };
      return versioned(await untilAborted(api.replaceNamespacedLease({ name, namespace, body }), signal));
    },
  };
}

function leaseSpec(record: LeaderElectionRecord): V1Lease['spec'] {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    acquireTime: new V1MicroTime(record.acquireTime),
    renewTime: new V1MicroTime(record.renewTime),
    leaseTransitions: record.leaderTransitions,
  };
}

function versioned(lease: V1Lease): VersionedRecord {
  const spec = lease.spec ?? {};
  return {
    resourceVersion: lease.metadata?.resourceVersion ?? '',
    record: {
      holderIdentity: spec.holderIdentity ?? '',
      leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
      acquireTime: spec.acquireTime ? new Date(spec.acquireTime).getTime() : 0,
      renewTime: spec.renewTime ? new Date(spec.renewTime).getTime() : 0,
      leaderTransitions: spec.leaseTransitions ?? 0,
    },
  };
}

function statusCode(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'number'
    ? err.code
    : undefined;
}

/** Stops waiting for `promise` when `signal` aborts: a hung request must not outlive the renew deadline. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
