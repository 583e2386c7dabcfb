import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * A leader election identity unique to this process: the host name (the pod name in a cluster)
 * and a random suffix, as controller-runtime makes it, so two processes on one host never share it.
 */
export function defaultLeaderIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}
