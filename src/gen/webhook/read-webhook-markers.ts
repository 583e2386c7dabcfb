import type { SourceFile } from 'ts-morph';
import type { MarkerContext } from '../../markers/collect.ts';
import { collectFreeMarkers } from '../../markers/collect-free.ts';
import { webhookMarkers } from '../../markers/definitions/webhook.ts';
import type { WebhookConfigurationMarker, WebhookMarker } from './webhook-marker.ts';

/** The webhook markers of a project, wherever they stand in its files. */
export interface WebhookMarkers {
  webhooks: WebhookMarker[];
  configurations: WebhookConfigurationMarker[];
}

/** Every `+kubebuilder:webhook` and `+kubebuilder:webhookconfiguration` marker in `files`. */
export function readWebhookMarkers(files: readonly SourceFile[], context: MarkerContext): WebhookMarkers {
  const definitions = [webhookMarkers.webhook, webhookMarkers.configuration];
  const found: WebhookMarkers = { webhooks: [], configurations: [] };
  for (const file of files) {
    const markers = collectFreeMarkers(file, definitions, context);
    for (const { value, location } of markers.get(webhookMarkers.webhook)) {
      found.webhooks.push({ ...value, location });
    }
    for (const { value, location } of markers.get(webhookMarkers.configuration)) {
      found.configurations.push({ ...value, location });
    }
  }
  return found;
}
