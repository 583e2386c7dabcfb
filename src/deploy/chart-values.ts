import { dump } from 'js-yaml';
import type { ImageReference } from './image-reference.ts';
import { managerContainer, managerDeployment, type ManifestObject } from './manifest-object.ts';

/** The switches of a chart's values.yaml, as Kubebuilder's helm/v2-alpha plugin names them. */
export interface ChartValues {
  readonly manager: {
    readonly replicas: number;
    readonly image: { readonly repository: string; readonly tag?: string; readonly digest?: string };
    /** `--leader-elect`: only the holder of the Lease reconciles. */
    readonly leaderElection: boolean;
    readonly resources: Readonly<Record<string, unknown>>;
  };
  readonly crd: { readonly enable: boolean; readonly keep: boolean };
  readonly metrics: { readonly enable: boolean };
  readonly prometheus: { readonly enable: boolean };
  readonly networkPolicy: { readonly enable: boolean };
  /** Only in a project with webhooks. */
  readonly webhook?: { readonly enable: boolean };
  /** Only in a project whose webhooks get their certificate from cert-manager. */
  readonly certManager?: { readonly enable: boolean };
}

/** What config/default turns on besides the objects it always builds. */
export interface DefaultComponents {
  /** config/default lists ../prometheus. */
  readonly prometheus: boolean;
  /** config/default lists ../network-policy. */
  readonly networkPolicy: boolean;
}

/**
 * The values that render the chart as config/default builds: each switch's default is what the
 * kustomize build holds.
 */
export function chartValues(
  objects: readonly ManifestObject[],
  image: ImageReference,
  components: DefaultComponents,
): ChartValues {
  const deployment = managerDeployment(objects);
  const container = deployment && managerContainer(deployment);
  const spec = deployment?.['spec'] as { replicas?: number } | undefined;
  const has = (test: (object: ManifestObject) => boolean): boolean => objects.some(test);
  const webhooks = has((o) => o.kind.endsWith('WebhookConfiguration'));
  const certManager = has((o) => o['apiVersion'] === 'cert-manager.io/v1');
  return {
    manager: {
      replicas: spec?.replicas ?? 1,
      image: {
        repository: image.name,
        ...(image.tag === undefined ? {} : { tag: image.tag }),
        ...(image.digest === undefined ? {} : { digest: image.digest }),
      },
      leaderElection: container?.args?.includes('--leader-elect') ?? false,
      resources: container?.resources ?? {},
    },
    crd: { enable: true, keep: true },
    metrics: { enable: has((o) => o.kind === 'Service' && o.metadata.name.endsWith('metrics-service')) },
    prometheus: { enable: components.prometheus },
    networkPolicy: { enable: components.networkPolicy },
    ...(webhooks ? { webhook: { enable: true } } : {}),
    ...(webhooks && certManager ? { certManager: { enable: true } } : {}),
  };
}

const COMMENTS: Readonly<Record<keyof ChartValues, string>> = {
  manager: 'The manager Deployment: its replicas, image, leader election (--leader-elect) and resources.',
  crd: 'The CRDs. keep: left in place by `helm uninstall` (helm.sh/resource-policy), and with them every custom resource.',
  metrics:
    'The /metrics endpoint over HTTPS: its Service, --metrics-bind-address, and the RBAC of its callers.',
  prometheus: 'A ServiceMonitor for the Prometheus Operator, whose CRDs must be installed; needs metrics.',
  networkPolicy:
    'NetworkPolicies: metrics only from namespaces labelled metrics: enabled, and the API server to the webhooks.',
  webhook: "The webhooks: their configurations, their Service, and the manager's webhook server.",
  certManager:
    'cert-manager issues the webhook certificate and injects its CA; off, provide the webhook-server-cert Secret yourself.',
};

/** values.yaml: each switch under a comment that says what it turns on. */
export function valuesYaml(header: string, values: ChartValues): string {
  const sections = Object.entries(values).map(
    ([key, value]: [string, unknown]) =>
      `# ${COMMENTS[key as keyof ChartValues]}\n${dump({ [key]: value }, { lineWidth: -1 })}`,
  );
  return header + sections.join('');
}
