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

/** `v1` Pod, namespaced. */
export const PodKind = defineKind<V1Pod>({
  apiVersion: 'v1',
  kind: 'Pod',
  plural: 'pods',
  namespaced: true,
  ...builtin,
});
/** `v1` Service, namespaced. */
export const ServiceKind = defineKind<V1Service>({
  apiVersion: 'v1',
  kind: 'Service',
  plural: 'services',
  namespaced: true,
  ...builtin,
});
/** `v1` ConfigMap, namespaced. */
export const ConfigMapKind = defineKind<V1ConfigMap>({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  namespaced: true,
  ...builtin,
});
/** `v1` Secret, namespaced. */
export const SecretKind = defineKind<V1Secret>({
  apiVersion: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  namespaced: true,
  ...builtin,
});
/** `v1` ServiceAccount, namespaced. */
export const ServiceAccountKind = defineKind<V1ServiceAccount>({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  namespaced: true,
  ...builtin,
});
/** `v1` Namespace, cluster-scoped. */
export const NamespaceKind = defineKind<V1Namespace>({
  apiVersion: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false,
  ...builtin,
});
/** `v1` Node, cluster-scoped. */
export const NodeKind = defineKind<V1Node>({
  apiVersion: 'v1',
  kind: 'Node',
  plural: 'nodes',
  namespaced: false,
  ...builtin,
});
/** `v1` PersistentVolume, cluster-scoped. */
export const PersistentVolumeKind = defineKind<V1PersistentVolume>({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  namespaced: false,
  ...builtin,
});
/** `v1` PersistentVolumeClaim, namespaced. */
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
/** `events.k8s.io/v1` Event, namespaced. */
export const EventKind = defineKind<EventsV1Event>({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  plural: 'events',
  namespaced: true,
  ...builtin,
});
/** `apps/v1` Deployment, namespaced. */
export const DeploymentKind = defineKind<V1Deployment>({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  plural: 'deployments',
  namespaced: true,
  ...builtin,
});
/** `apps/v1` StatefulSet, namespaced. */
export const StatefulSetKind = defineKind<V1StatefulSet>({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  namespaced: true,
  ...builtin,
});
/** `apps/v1` DaemonSet, namespaced. */
export const DaemonSetKind = defineKind<V1DaemonSet>({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  namespaced: true,
  ...builtin,
});
/** `apps/v1` ReplicaSet, namespaced. */
export const ReplicaSetKind = defineKind<V1ReplicaSet>({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  plural: 'replicasets',
  namespaced: true,
  ...builtin,
});
/** `batch/v1` Job, namespaced. */
export const JobKind = defineKind<V1Job>({
  apiVersion: 'batch/v1',
  kind: 'Job',
  plural: 'jobs',
  namespaced: true,
  ...builtin,
});
/** `batch/v1` CronJob, namespaced. */
export const CronJobKind = defineKind<V1CronJob>({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  plural: 'cronjobs',
  namespaced: true,
  ...builtin,
});
/** `networking.k8s.io/v1` Ingress, namespaced. */
export const IngressKind = defineKind<V1Ingress>({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  plural: 'ingresses',
  namespaced: true,
  ...builtin,
});
/** `networking.k8s.io/v1` NetworkPolicy, namespaced. */
export const NetworkPolicyKind = defineKind<V1NetworkPolicy>({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  namespaced: true,
  ...builtin,
});
/** `discovery.k8s.io/v1` EndpointSlice, namespaced. */
export const EndpointSliceKind = defineKind<V1EndpointSlice>({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  plural: 'endpointslices',
  namespaced: true,
  ...builtin,
});
/** `autoscaling/v1` HorizontalPodAutoscaler, namespaced. */
export const HorizontalPodAutoscalerKind = defineKind<V1HorizontalPodAutoscaler>({
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  namespaced: true,
  ...builtin,
});
/** `policy/v1` PodDisruptionBudget, namespaced. */
export const PodDisruptionBudgetKind = defineKind<V1PodDisruptionBudget>({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  namespaced: true,
  ...builtin,
});
/** `rbac.authorization.k8s.io/v1` Role, namespaced. */
export const RoleKind = defineKind<V1Role>({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  plural: 'roles',
  namespaced: true,
  ...builtin,
});
/** `rbac.authorization.k8s.io/v1` RoleBinding, namespaced. */
export const RoleBindingKind = defineKind<V1RoleBinding>({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  plural: 'rolebindings',
  namespaced: true,
  ...builtin,
});
/** `rbac.authorization.k8s.io/v1` ClusterRole, cluster-scoped. */
export const ClusterRoleKind = defineKind<V1ClusterRole>({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  plural: 'clusterroles',
  namespaced: false,
  ...builtin,
});
/** `rbac.authorization.k8s.io/v1` ClusterRoleBinding, cluster-scoped. */
export const ClusterRoleBindingKind = defineKind<V1ClusterRoleBinding>({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  namespaced: false,
  ...builtin,
});
/** `coordination.k8s.io/v1` Lease, namespaced. */
export const LeaseKind = defineKind<V1Lease>({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  plural: 'leases',
  namespaced: true,
  ...builtin,
});
/** `admissionregistration.k8s.io/v1` MutatingWebhookConfiguration, cluster-scoped. */
export const MutatingWebhookConfigurationKind = defineKind<V1MutatingWebhookConfiguration>({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  namespaced: false,
  ...builtin,
});
/** `admissionregistration.k8s.io/v1` ValidatingWebhookConfiguration, cluster-scoped. */
export const ValidatingWebhookConfigurationKind = defineKind<V1ValidatingWebhookConfiguration>({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  namespaced: false,
  ...builtin,
});
/**
 * `apiextensions.k8s.io/v1` CustomResourceDefinition, cluster-scoped. The apiextensions server
 * serves it, and takes no strategic merge patches.
 */
export const CustomResourceDefinitionKind = defineKind<V1CustomResourceDefinition>({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
});

/** The default kind registry, holding every kind above: import it from here so that they are in it. */
export { kindRegistry };
