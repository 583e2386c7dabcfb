import type { ManifestObject } from '../deploy/manifest-object.ts';

/** One Deployment of a CSV's install strategy. */
export interface StrategyDeployment {
  readonly name: string;
  readonly label?: Record<string, string>;
  readonly spec: Record<string, unknown>;
}

/** The folder OLM mounts a webhook's serving certificate in: the one Kubebuilder's manager reads. */
const OLM_WEBHOOK_CERT_DIR = '/tmp/k8s-webhook-server/serving-certs';

interface Volume {
  readonly name?: string;
  readonly secret?: { readonly secretName?: string };
}

interface Container {
  readonly volumeMounts?: readonly { readonly name?: string; readonly mountPath?: string }[];
  readonly env?: readonly { readonly name?: string }[];
}

/** The variable a namespaced manager reads the namespace it watches from (config/manager sets it). */
const WATCH_NAMESPACE = 'WATCH_NAMESPACE';

/** WATCH_NAMESPACE from the Pod annotation OLM sets to the namespaces the install mode targets ('' for all). */
const WATCH_TARGET_NAMESPACES = {
  name: WATCH_NAMESPACE,
  valueFrom: { fieldRef: { fieldPath: "metadata.annotations['olm.targetNamespaces']" } },
};

/**
 * The Deployments as the CSV's install strategy runs them. OLM issues the webhook certificate and
 * mounts it where the manager reads it; cert-manager's Secret volume mounted at that path is
 * dropped, as operator-sdk's config/manifests patch drops it, or the Pod would mount the path twice.
 * WATCH_NAMESPACE reads the namespaces the install mode targets, as operator-sdk sets it: the Pod's
 * own namespace is the target only under OwnNamespace.
 */
export function installDeployments(objects: readonly ManifestObject[]): StrategyDeployment[] {
  return objects
    .filter((object) => object.kind === 'Deployment')
    .map((deployment) => {
      const labels = deployment.metadata['labels'] as Record<string, string> | undefined;
      return {
        name: deployment.metadata.name,
        ...(labels === undefined ? {} : { label: labels }),
        spec: watchingTargetNamespaces(withoutCertVolumes(deployment['spec'] as Record<string, unknown>)),
      };
    });
}

function withoutCertVolumes(spec: Record<string, unknown>): Record<string, unknown> {
  const template = spec['template'] as
    { spec?: { volumes?: Volume[]; containers?: Container[] } } | undefined;
  const pod = template?.spec;
  if (pod === undefined) return spec;
  const mounted = new Set(
    (pod.containers ?? []).flatMap((container) =>
      (container.volumeMounts ?? [])
        .filter((mount) => mount.mountPath === OLM_WEBHOOK_CERT_DIR)
        .map((mount) => mount.name),
    ),
  );
  const dropped = new Set(
    (pod.volumes ?? []).filter((volume) => volume.secret && mounted.has(volume.name)).map((v) => v.name),
  );
  if (dropped.size === 0) return spec;
  const volumes = (pod.volumes ?? []).filter((volume) => !dropped.has(volume.name));
  const containers = (pod.containers ?? []).map((container) => {
    const kept: Record<string, unknown> = { ...container };
    const mounts = (container.volumeMounts ?? []).filter((mount) => !dropped.has(mount.name));
    if (mounts.length > 0) kept['volumeMounts'] = mounts;
    else delete kept['volumeMounts'];
    return kept;
  });
  const podSpec: Record<string, unknown> = { ...pod, containers, volumes };
  if (volumes.length === 0) delete podSpec['volumes'];
  return { ...spec, template: { ...template, spec: podSpec } };
}

function watchingTargetNamespaces(spec: Record<string, unknown>): Record<string, unknown> {
  const template = spec['template'] as { spec?: { containers?: Container[] } } | undefined;
  const pod = template?.spec;
  if (pod?.containers === undefined) return spec;
  const containers = pod.containers.map((container) =>
    container.env === undefined
      ? container
      : {
          ...container,
          env: container.env.map((variable) =>
            variable.name === WATCH_NAMESPACE ? WATCH_TARGET_NAMESPACES : variable,
          ),
        },
  );
  return { ...spec, template: { ...template, spec: { ...pod, containers } } };
}
