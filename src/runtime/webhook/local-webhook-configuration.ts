import type { KubeObject } from '../api/kube-object.ts';
import { CONVERT_PATH } from './webhook-paths.ts';
import type { WebhookClientConfig } from './webhook-server.ts';

/** A clientConfig as generated manifests carry it: a Service in the cluster, or a URL. */
interface ManifestClientConfig {
  service?: { path?: string };
  url?: string;
}

/** Where the webhooks of a manifest can be sent: a started WebhookServer with its generated CA. */
export interface WebhookTarget {
  clientConfig(path: string): WebhookClientConfig;
  /**
   * The paths the target serves: a webhook at another path is left out, as the API server would
   * call it and fail (a test serving one version's webhooks). Default: every path.
   */
  readonly paths?: readonly string[];
}

/**
 * A copy of a generated manifest whose webhooks call `target` instead of the in-cluster Service:
 * every webhook of a Mutating- or ValidatingWebhookConfiguration, and the conversion webhook of a
 * CustomResourceDefinition, keep their path and get the local URL and CA bundle. Other manifests
 * are returned as they are. This is how `npm start` and tests run webhooks outside the cluster.
 *
 * @example
 * ```ts
 * await mgr.webhookServer.start();
 * for (const manifest of generatedManifests) await client.apply(pointAtWebhookServer(manifest, mgr.webhookServer));
 * ```
 */
export function pointAtWebhookServer<T extends KubeObject>(manifest: T, target: WebhookTarget): T {
  const copy = structuredClone(manifest) as T & {
    webhooks?: { clientConfig?: ManifestClientConfig }[];
    spec?: { conversion?: { strategy?: string; webhook?: { clientConfig?: ManifestClientConfig } } };
  };
  if (copy.kind === 'MutatingWebhookConfiguration' || copy.kind === 'ValidatingWebhookConfiguration') {
    const served = (path: string): boolean => target.paths === undefined || target.paths.includes(path);
    copy.webhooks = (copy.webhooks ?? []).filter((webhook) => served(pathOf(webhook.clientConfig) ?? '/'));
    for (const webhook of copy.webhooks)
      webhook.clientConfig = target.clientConfig(pathOf(webhook.clientConfig) ?? '/');
  }
  const conversion = copy.kind === 'CustomResourceDefinition' ? copy.spec?.conversion : undefined;
  if (conversion?.strategy === 'Webhook' && conversion.webhook) {
    conversion.webhook.clientConfig = target.clientConfig(
      pathOf(conversion.webhook.clientConfig) ?? CONVERT_PATH,
    );
  }
  return copy;
}

function pathOf(config: ManifestClientConfig | undefined): string | undefined {
  if (config?.service) return config.service.path;
  return config?.url ? new URL(config.url).pathname : undefined;
}
