/**
 * The label and identity names of the external kubernetes-controller-sharding project
 * (sharding.timebertt.dev, v1alpha1), so that a shard of this runtime can join a ring that
 * project's sharder manages, and its tools read ours.
 */
const ALPHA_PREFIX = 'alpha.sharding.timebertt.dev/';

/** On a shard's Lease: the ring it belongs to. */
export const RING_LABEL = `${ALPHA_PREFIX}controllerring`;

/** On a shard's Lease: its state as the sharder last saw it, for people and dashboards. */
export const STATE_LABEL = `${ALPHA_PREFIX}state`;

/** The holder the sharder writes into the Lease of a shard it declares dead. */
export const SHARDER_IDENTITY = 'shardlease-controller';

/** On a sharded object: the shard of `ring` that reconciles it. */
export function shardLabel(ring: string): string {
  return `shard.${ALPHA_PREFIX}${ring}`;
}

/** On a sharded object: its shard must let go of it (stop, and remove this and the shard label). */
export function drainLabel(ring: string): string {
  return `drain.${ALPHA_PREFIX}${ring}`;
}

/**
 * On a shard's Lease: the identity of the process holding it (host name and a random id), which
 * the holderIdentity (the shard's name, as the protocol wants) does not tell apart when two
 * processes are given one shard name.
 */
export const HOLDER_PROCESS_ANNOTATION = 'sharding.tsoperator.dev/holder-process';

/**
 * On a shard's Lease, next to {@link HOLDER_PROCESS_ANNOTATION}: the renewTime that process wrote
 * last, on its own clock. A writer that keeps the annotations as it reads them and renews the
 * Lease leaves a renewTime that differs from it.
 */
export const HOLDER_RENEW_TIME_ANNOTATION = 'sharding.tsoperator.dev/holder-renew-time';

/** What a label's value may be: 63 characters at most, alphanumeric at both ends. */
const LABEL_VALUE = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

/** Whether `value` may be a label's value (a shard's name must: objects carry it). */
export function isLabelValue(value: string): boolean {
  return LABEL_VALUE.test(value);
}
