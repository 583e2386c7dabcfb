import type {
  CoreV1Event,
  EventsV1Event,
  V1ClusterRole,
  V1ClusterRoleBinding,
  V1ConfigMap,
  V1CronJob,
  V1CustomResourceDefinition,
  V1DaemonSet,
  V1Deployment,
  V1EndpointSlice,
  V1HorizontalPodAutoscaler,
  V1Ingress,
  V1Job,
  V1Lease,
  V1MutatingWebhookConfiguration,
  V1Namespace,
  V1NetworkPolicy,
  V1Node,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodDisruptionBudget,
  V1ReplicaSet,
  V1Role,
  V1RoleBinding,
  V1Secret,
  V1Service,
  V1ServiceAccount,
  V1StatefulSet,
  V1ValidatingWebhookConfiguration,
} from '@kubernetes/client-node';
import { defineKind, kindRegistry } from './kind.ts';

// Kubernetes' own kinds, typed with client-node's models: what you write may be such a model
// (Dates and all); what you read is its JSON, `Json<V1Job>`, whose timestamps are strings (see
// api/json.ts). The API server takes strategic merge patches for all of them but
// CustomResourceDefinition, served by the apiextensions server.
const builtin = { strategicMerge: true } as const;

export const PodKind = defineKind<V1Pod>({
  apiVersion: 'v1',
  kind: 'Pod',
  plural: 'pods',
  namespaced: true,
  ...builtin,
});
export const ServiceKind = defineKind<V1Service>({
  apiVersion: 'v1',
  kind: 'Service',
  plural: 'services',
  namespaced: true,
  ...builtin,
});
export const ConfigMapKind = defineKind<V1ConfigMap>({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  namespaced: true,
  ...builtin,
});
export const SecretKind = defineKind<V1Secret>({
  apiVersion: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  namespaced: true,
  ...builtin,
});
export const ServiceAccountKind = defineKind<V1ServiceAccount>({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  namespaced: true,
  ...builtin,
});
export const NamespaceKind = defineKind<V1Namespace>({
  apiVersion: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false,
  ...builtin,
});
export const NodeKind = defineKind<V1Node>({
  apiVersion: 'v1',
  kind: 'Node',
  plural: 'nodes',
  namespaced: false,
  ...builtin,
});
export const PersistentVolumeKind = defineKind<V1PersistentVolume>({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  namespaced: false,
  ...builtin,
});
export const PersistentVolumeClaimKind = defineKind<V1PersistentVolumeClaim>({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  namespaced: true,
  ...builtin,
});
/** The core/v1 Event; new code writes {@link EventKind} (events.k8s.io/v1). */
export const CoreEventKind = defineKind<CoreV1Event>({
  apiVersion: 'v1',
  kind: 'Event',
  plural: 'events',
  namespaced: true,
  ...builtin,
});
export const EventKind = defineKind<EventsV1Event>({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  plural: 'events',
  namespaced: true,
  ...builtin,
});
export const DeploymentKind = defineKind<V1Deployment>({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  plural: 'deployments',
  namespaced: true,
  ...builtin,
});
export const StatefulSetKind = defineKind<V1StatefulSet>({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  namespaced: true,
  ...builtin,
});
export const DaemonSetKind = defineKind<V1DaemonSet>({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  namespaced: true,
  ...builtin,
});
export const ReplicaSetKind = defineKind<V1ReplicaSet>({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  plural: 'replicasets',
  namespaced: true,
  ...builtin,
});
export const JobKind = defineKind<V1Job>({
  apiVersion: 'batch/v1',
  kind: 'Job',
  plural: 'jobs',
  namespaced: true,
  ...builtin,
});
export const CronJobKind = defineKind<V1CronJob>({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  plural: 'cronjobs',
  namespaced: true,
  ...builtin,
});
export const IngressKind = defineKind<V1Ingress>({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  plural: 'ingresses',
  namespaced: true,
  ...builtin,
});
export const NetworkPolicyKind = defineKind<V1NetworkPolicy>({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  namespaced: true,
  ...builtin,
});
export const EndpointSliceKind = defineKind<V1EndpointSlice>({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  plural: 'endpointslices',
  namespaced: true,
  ...builtin,
});
export const HorizontalPodAutoscalerKind = defineKind<V1HorizontalPodAutoscaler>({
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  namespaced: true,
  ...builtin,
});
export const PodDisruptionBudgetKind = defineKind<V1PodDisruptionBudget>({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  namespaced: true,
  ...builtin,
});
export const RoleKind = defineKind<V1Role>({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  plural: 'roles',
  namespaced: true,
  ...builtin,
});
export const RoleBindingKind = defineKind<V1RoleBinding>({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  plural: 'rolebindings',
  namespaced: true,
  ...builtin,
});
export const ClusterRoleKind = defineKind<V1ClusterRole>({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  plural: 'clusterroles',
  namespaced: false,
  ...builtin,
});
export const ClusterRoleBindingKind = defineKind<V1ClusterRoleBinding>({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  namespaced: false,
  ...builtin,
});
export const LeaseKind = defineKind<V1Lease>({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  plural: 'leases',
  namespaced: true,
  ...builtin,
});
export const MutatingWebhookConfigurationKind = defineKind<V1MutatingWebhookConfiguration>({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  namespaced: false,
  ...builtin,
});
export const ValidatingWebhookConfigurationKind = defineKind<V1ValidatingWebhookConfiguration>({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  namespaced: false,
  ...builtin,
});
/** CRDs are served by the apiextensions server, which takes no strategic merge patches. */
export const CustomResourceDefinitionKind = defineKind<V1CustomResourceDefinition>({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
});

/** The default kind registry, holding every kind above: import it from here so that they are in it. */
export { kindRegistry };
