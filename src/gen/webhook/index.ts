export { generateWebhookConfigurations } from './generate-webhook-configurations.ts';
export { readWebhookMarkers } from './read-webhook-markers.ts';
export type { WebhookMarkers } from './read-webhook-markers.ts';
export type { WebhookConfigurationMarker, WebhookMarker } from './webhook-marker.ts';
export type { WebhookConfigurationManifest, WebhookEntry } from './webhook-manifest.ts';
export { WEBHOOK_FILE, webhookManifestGenerator } from './webhook-manifest-generator.ts';
