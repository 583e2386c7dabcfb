import type { Client } from '../../../src/runtime/client/client.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';

/** The annotation that makes a ConfigMap's labels frozen under {@link freezeLockedLabels}. */
export const LOCKED = 'example.com/locked';

const PolicyKind = defineKind({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  plural: 'validatingadmissionpolicies',
  namespaced: false,
});
const BindingKind = defineKind({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  plural: 'validatingadmissionpolicybindings',
  namespaced: false,
});

/**
 * A ValidatingAdmissionPolicy that refuses any change to the labels of a ConfigMap annotated
 * {@link LOCKED}: what a Kyverno or Gatekeeper policy on existing objects does to the sharder's
 * label writes.
 */
export async function freezeLockedLabels(client: Client): Promise<void> {
  await client.create({
    apiVersion: PolicyKind.apiVersion,
    kind: PolicyKind.kind,
    metadata: { name: 'frozen-labels' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [
          { apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['configmaps'] },
        ],
      },
      matchConditions: [
        {
          name: 'locked',
          expression: `has(object.metadata.annotations) && '${LOCKED}' in object.metadata.annotations`,
        },
      ],
      validations: [
        {
          expression: 'oldObject.metadata.?labels.orValue({}) == object.metadata.?labels.orValue({})',
          message: 'the labels of a locked ConfigMap are frozen',
        },
      ],
    },
  } as never);
  await client.create({
    apiVersion: BindingKind.apiVersion,
    kind: BindingKind.kind,
    metadata: { name: 'frozen-labels' },
    spec: { policyName: 'frozen-labels', validationActions: ['Deny'] },
  } as never);
}
