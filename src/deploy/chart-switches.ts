import type { ChartMarks } from './chart-marks.ts';
import { managerContainer, podSpec, type ManifestObject } from './manifest-object.ts';

const WEBHOOK = '.Values.webhook.enable';
const CERT_MANAGER = '.Values.certManager.enable';
const METRICS = '.Values.metrics.enable';
const INJECT_CA = 'cert-manager.io/inject-ca-from';
/** The names config/ gives the manager's webhook port and certificate volume. */
const WEBHOOK_PORT = 'webhook-server';
const WEBHOOK_CERTS = 'webhook-certs';

/**
 * The condition under which the chart installs `object` (undefined: always), as the values'
 * switches decide. Matched by kind and by the names config/ gives the objects.
 */
export function objectCondition(object: ManifestObject): string | undefined {
  const name = object.metadata.name;
  if (object.kind === 'CustomResourceDefinition') return '.Values.crd.enable';
  if (object.kind === 'ServiceMonitor') return `and .Values.prometheus.enable ${METRICS}`;
  if (object.kind === 'NetworkPolicy') {
    return name.endsWith('allow-webhook-traffic')
      ? `and .Values.networkPolicy.enable ${WEBHOOK}`
      : '.Values.networkPolicy.enable';
  }
  if (object['apiVersion'] === 'cert-manager.io/v1') return `and ${CERT_MANAGER} ${WEBHOOK}`;
  if (object.kind.endsWith('WebhookConfiguration')) return WEBHOOK;
  if (object.kind === 'Service' && name.endsWith('webhook-service')) return WEBHOOK;
  if (object.kind === 'Service' && name.endsWith('metrics-service')) return METRICS;
  if (/metrics-(auth-role|auth-rolebinding|reader)$/.test(name)) return METRICS;
  return undefined;
}

/**
 * Puts the values' switches inside `object` (a copy the chart may edit): the manager's replicas,
 * resources and flags, the CRDs' keep annotation and conversion webhook, cert-manager's CA
 * injection.
 */
export function markSwitches(object: ManifestObject, marks: ChartMarks): void {
  if (object.kind === 'CustomResourceDefinition') markCrd(object, marks);
  if (object.kind.endsWith('WebhookConfiguration')) markInjectCa(object, marks, CERT_MANAGER);
  const container = object.kind === 'Deployment' ? managerContainer(object) : undefined;
  if (container) markManager(object, marks);
}

function markCrd(crd: ManifestObject, marks: ChartMarks): void {
  const annotations = annotationsOf(crd);
  annotations['helm.sh/resource-policy'] = marks.entry('.Values.crd.keep', 'helm.sh/resource-policy', 'keep');
  markInjectCa(crd, marks, `and ${WEBHOOK} ${CERT_MANAGER}`);
  const spec = crd['spec'] as { conversion?: { strategy?: string } } | undefined;
  if (spec?.conversion?.strategy === 'Webhook') {
    // Without the webhook, the API server converts as it does by default: None.
    spec.conversion = marks.entry(WEBHOOK, 'conversion', spec.conversion) as never;
  }
}

function markInjectCa(object: ManifestObject, marks: ChartMarks, condition: string): void {
  const annotations = object.metadata['annotations'] as Record<string, unknown> | undefined;
  const from = annotations?.[INJECT_CA];
  if (annotations && from !== undefined) annotations[INJECT_CA] = marks.entry(condition, INJECT_CA, from);
}

function markManager(deployment: ManifestObject, marks: ChartMarks): void {
  const spec = deployment['spec'] as Record<string, unknown>;
  spec['replicas'] = marks.value('.Values.manager.replicas');
  const pod = podSpec(deployment);
  const container = managerContainer(deployment);
  if (!pod || !container) return;
  container.resources = marks.yaml('.Values.manager.resources') as never;
  container.args = container.args?.map((arg) => {
    if (arg === '--leader-elect') return marks.item('.Values.manager.leaderElection', arg);
    if (typeof arg !== 'string') return arg;
    if (arg.startsWith('--metrics-bind-address='))
      return marks.item(METRICS, arg, '--metrics-bind-address=0');
    if (arg.startsWith('--webhook-cert-path=')) return marks.item(WEBHOOK, arg);
    return arg;
  });
  if (container.ports) container.ports = onlyWithWebhooks(container.ports, WEBHOOK_PORT, marks);
  if (container.volumeMounts)
    container.volumeMounts = onlyWithWebhooks(container.volumeMounts, WEBHOOK_CERTS, marks);
  if (pod.volumes) pod.volumes = onlyWithWebhooks(pod.volumes, WEBHOOK_CERTS, marks);
}

/** `items` with the one named `name` kept only when the webhooks are on. */
function onlyWithWebhooks<T extends { name?: string }>(items: T[], name: string, marks: ChartMarks): T[] {
  return items.map((item) => (item.name === name ? (marks.item(WEBHOOK, item) as never) : item));
}

function annotationsOf(object: ManifestObject): Record<string, unknown> {
  const metadata = object.metadata as Record<string, unknown>;
  metadata['annotations'] ??= {};
  return metadata['annotations'] as Record<string, unknown>;
}
