import type { KubeObject } from '../api/kube-object.ts';
import { Counter } from '../metrics/prom-client.ts';
import type { Kind } from '../client/kind.ts';
import type { Logger } from '../log/logger.ts';
import { oncePerRegistry } from '../metrics/once-per-registry.ts';
import { metricsRegistry } from '../metrics/registry.ts';

/** Why an informer left an object out: its transform threw, or one of its index functions did. */
export type SkipReason = 'transform' | 'index';

/**
 * `informer_skipped_objects_total{group, kind, reason}`: objects an informer left out of its cache
 * because the transform or an index function threw on them. Named as client-go names its
 * informer-side metrics (no controller_runtime_ prefix); registered on first use.
 */
const skippedObjects = oncePerRegistry(
  (registry) =>
    new Counter({
      name: 'informer_skipped_objects_total',
      help: 'Number of objects an informer left out of its cache because its transform or an index function threw, partitioned by group, kind and reason.',
      labelNames: ['group', 'kind', 'reason'],
      registers: [registry],
    }),
);

/** Says which object of `kind` was left out of the cache and why, in the log and the metric. */
export function reportSkippedObject(
  logger: Logger,
  kind: Kind,
  obj: KubeObject,
  reason: SkipReason,
  err: unknown,
): void {
  const what = reason === 'index' ? 'an index function' : 'the transform';
  logger.error(`object left out of the cache: ${what} threw`, {
    kind: kind.kind,
    namespace: obj.metadata?.namespace,
    name: obj.metadata?.name,
    resourceVersion: obj.metadata?.resourceVersion,
    err,
  });
  skippedObjects(metricsRegistry).inc({ group: kind.group, kind: kind.kind, reason });
}
