/**
 * envtest: a real kube-apiserver and etcd (and optionally kube-controller-manager, or nodes run by
 * kube-scheduler and kwok) for tests, as Kubebuilder's envtest provides them to Go projects.
 *
 * @example
 * ```ts
 * import { startEnvironment } from 'tsoperator/envtest';
 * await using env = await startEnvironment({ crdPaths: ['config/crd/bases'] });
 * const kc = env.kubeConfig;
 * ```
 */
export { Environment, startEnvironment, type EnvironmentOptions, type User } from './environment.ts';
export { resolveAssets, type Assets, type AssetsSource, type ResolveAssetsOptions } from './assets.ts';
export { DEFAULT_KUBERNETES_VERSION, parseKubernetesVersion, type KubernetesVersion } from './versions.ts';
export { CONTROL_PLANE_BINARIES } from './binaries.ts';
export { installWebhooks, type LocalWebhookServer } from './webhooks.ts';
export { installConversionCrds } from './conversion-crds.ts';
export { eventually, consistently, type PollOptions } from './eventually.ts';
