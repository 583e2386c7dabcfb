import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { JsonInput } from './json.ts';

/**
 * Any Kubernetes object, as the runtime's functions take it (controller-runtime's client.Object):
 * an apiVersion, a kind and metadata. Its metadata's timestamps are `Date | string`, so that an
 * object read from the API server (strings: `Json<V1Pod>`, or a CRD type with `metadata?:
 * ObjectMeta`) and a client-node model built in code (Dates: `V1Pod`) both fit. client-node's own
 * KubernetesObject types them as `Date` only, which no object the runtime reads satisfies.
 *
 * @example
 * ```ts
 * function describe(obj: KubeObject): string {
 *   return `${obj.kind ?? 'object'} ${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
 * }
 * ```
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: JsonInput<V1ObjectMeta>;
}
