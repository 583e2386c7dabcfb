import type { ManifestObject } from '../deploy/manifest-object.ts';

/** One entry of a CSV's `spec.webhookdefinitions`: OLM creates the configuration and its certificate. */
export type WebhookDefinition = Record<string, unknown> & {
  readonly type: 'ValidatingAdmissionWebhook' | 'MutatingAdmissionWebhook' | 'ConversionWebhook';
  readonly generateName: string;
};

interface ServiceRef {
  readonly name?: string;
  readonly path?: string;
  readonly port?: number;
}

interface ServicePort {
  readonly port?: number;
  readonly targetPort?: number | string;
}

/** The port a webhook's Service reference means when it names none. */
const DEFAULT_SERVICE_PORT = 443;

const ADMISSION_KINDS = {
  ValidatingWebhookConfiguration: 'ValidatingAdmissionWebhook',
  MutatingWebhookConfiguration: 'MutatingAdmissionWebhook',
} as const;

/** Fields an admission webhook carries over into its definition unchanged. */
const ADMISSION_FIELDS = [
  'rules',
  'failurePolicy',
  'matchPolicy',
  'objectSelector',
  'timeoutSeconds',
  'reinvocationPolicy',
] as const;

/**
 * The webhook definitions of a CSV, as operator-sdk derives them: one per admission webhook of the
 * webhook configurations, and one per Service and path that CRDs' conversion webhooks call. Each
 * names the Deployment whose Pods the webhook's Service selects, and the container port it reaches.
 */
export function webhookDefinitions(objects: readonly ManifestObject[]): WebhookDefinition[] {
  const definitions: WebhookDefinition[] = [];
  for (const config of objects) {
    const type = ADMISSION_KINDS[config.kind as keyof typeof ADMISSION_KINDS];
    if (type === undefined) continue;
    const webhooks = (config['webhooks'] as Record<string, unknown>[] | undefined) ?? [];
    for (const webhook of webhooks) definitions.push(admissionDefinition(objects, type, webhook));
  }
  definitions.push(...conversionDefinitions(objects));
  return definitions.sort((a, b) => a.generateName.localeCompare(b.generateName));
}

function admissionDefinition(
  objects: readonly ManifestObject[],
  type: WebhookDefinition['type'],
  webhook: Record<string, unknown>,
): WebhookDefinition {
  const carried = Object.fromEntries(
    ADMISSION_FIELDS.filter((field) => webhook[field] !== undefined).map((field) => [field, webhook[field]]),
  );
  const service = (webhook['clientConfig'] as { service?: ServiceRef } | undefined)?.service;
  return {
    type,
    generateName: String(webhook['name']),
    ...carried,
    // OLM's defaults when the configuration leaves them out, as operator-sdk fills them in.
    admissionReviewVersions: webhook['admissionReviewVersions'] ?? ['v1beta1'],
    sideEffects: webhook['sideEffects'] ?? 'None',
    ...(service === undefined ? {} : serviceTarget(objects, service)),
  };
}

/** One conversion definition per Service port and path, listing the CRDs converted there. */
function conversionDefinitions(objects: readonly ManifestObject[]): WebhookDefinition[] {
  const groups = new Map<string, { service: ServiceRef; crds: string[]; reviewVersions: unknown }>();
  for (const crd of objects.filter((object) => object.kind === 'CustomResourceDefinition')) {
    const webhook = (crd['spec'] as { conversion?: { webhook?: Record<string, unknown> } } | undefined)
      ?.conversion?.webhook;
    const service = (webhook?.['clientConfig'] as { service?: ServiceRef } | undefined)?.service;
    if (service?.name === undefined) continue;
    const key = `${service.name} ${service.port ?? DEFAULT_SERVICE_PORT} ${service.path ?? ''}`;
    const group = groups.get(key) ?? {
      service,
      crds: [],
      reviewVersions: webhook?.['conversionReviewVersions'],
    };
    group.crds.push(crd.metadata.name);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ service, crds, reviewVersions }) => {
    const sorted = [...crds].sort();
    return {
      type: 'ConversionWebhook',
      // operator-sdk's name: `c` and the CRDs' plurals, in the `.kb.io` domain of Kubebuilder's webhooks.
      generateName: `c${sorted.map((name) => name.split('.')[0]).join('')}.kb.io`,
      conversionCRDs: sorted,
      admissionReviewVersions: reviewVersions ?? [],
      sideEffects: 'None',
      ...serviceTarget(objects, service),
    };
  });
}

/** The Deployment, container port and path behind a webhook's Service reference. */
function serviceTarget(objects: readonly ManifestObject[], ref: ServiceRef): Record<string, unknown> {
  const service = objects.find((object) => object.kind === 'Service' && object.metadata.name === ref.name);
  const spec = service?.['spec'] as { ports?: ServicePort[]; selector?: Record<string, string> } | undefined;
  const wanted = ref.port ?? DEFAULT_SERVICE_PORT;
  const port = spec?.ports?.find((candidate) => candidate.port === wanted);
  const deployment = spec?.selector === undefined ? undefined : selectedDeployment(objects, spec.selector);
  return {
    // Without a selecting Deployment, operator-sdk's guess: the Service's name less `-service`.
    deploymentName: deployment?.metadata.name ?? (ref.name ?? '').replace(/-service$/, ''),
    ...(port?.port === undefined ? {} : { containerPort: port.port }),
    ...(port?.targetPort === undefined ? {} : { targetPort: port.targetPort }),
    ...(ref.path === undefined ? {} : { webhookPath: ref.path }),
  };
}

function selectedDeployment(
  objects: readonly ManifestObject[],
  selector: Record<string, string>,
): ManifestObject | undefined {
  return objects.find((object) => {
    if (object.kind !== 'Deployment') return false;
    const labels =
      (object['spec'] as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)
        ?.template?.metadata?.labels ?? {};
    return Object.entries(selector).every(([key, value]) => labels[key] === value);
  });
}
