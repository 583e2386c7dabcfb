import type {
  AdmissionregistrationV1WebhookClientConfig,
  V1MutatingWebhookConfiguration,
  V1RuleWithOperations,
} from '@kubernetes/client-node';
import type { Kind } from '../client/kind.ts';
import type { RingKind } from './ring-kind.ts';
import { shardLabel } from './shard-labels.ts';

/** What the configuration of a ring's shard-assignment webhook names. */
export interface ShardAssignmentWebhookOptions {
  readonly ring: string;
  readonly kinds: readonly RingKind[];
  /** Where the API server calls it: the manager Service at `shardAssignmentPath(ring)`, or a URL. */
  readonly clientConfig: AdmissionregistrationV1WebhookClientConfig;
}

/**
 * A short timeout: an unanswered call delays the create by this much, then admits it unlabelled
 * (failurePolicy Ignore), for the sharder to label.
 */
const TIMEOUT_SECONDS = 5;

/**
 * The MutatingWebhookConfiguration that sends each create of the ring's kinds, and of the kinds
 * they control, to the shard-assignment webhook. Only objects without the shard label are sent
 * (objectSelector): a shard's own writes of controlled objects carry it already. Its
 * failurePolicy is Ignore, so that no create fails for want of a replica answering (none ready
 * yet, a rollout, a certificate not yet trusted): the sharder labels whatever the webhook missed.
 */
export function shardAssignmentWebhookConfiguration(
  options: ShardAssignmentWebhookOptions,
): V1MutatingWebhookConfiguration {
  const kinds = [...new Set(options.kinds.flatMap((k) => [k.kind, ...k.controlled]))];
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: `shard-assignment-${options.ring}` },
    webhooks: [
      {
        name: `${options.ring}.assign-shard.tsoperator.dev`,
        clientConfig: options.clientConfig,
        rules: kinds.map(createRule),
        objectSelector: {
          matchExpressions: [{ key: shardLabel(options.ring), operator: 'DoesNotExist' }],
        },
        failurePolicy: 'Ignore',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        timeoutSeconds: TIMEOUT_SECONDS,
      },
    ],
  };
}

function createRule(kind: Kind): V1RuleWithOperations {
  return {
    apiGroups: [kind.group],
    apiVersions: [kind.version],
    operations: ['CREATE'],
    resources: [kind.plural],
    scope: kind.namespaced ? 'Namespaced' : 'Cluster',
  };
}
