import { posix } from 'node:path';
import type { SourceFile } from 'ts-morph';
import { webhookMarkers } from '../../markers/definitions/webhook.ts';
import type { ManifestGenerator } from '../manifest-generator.ts';
import { displayPath, sourcesMentioning } from '../marked-sources.ts';
import { writeYamlDocuments } from '../yaml/write-yaml-documents.ts';
import { generateWebhookConfigurations } from './generate-webhook-configurations.ts';
import { readWebhookMarkers } from './read-webhook-markers.ts';

/** Where webhook configurations go, as Kubebuilder lays out `config/`. */
export const WEBHOOK_FILE = posix.join('config', 'webhook', 'manifests.yaml');

/** `+kubebuilder:webhook` markers anywhere under `src/` to `config/webhook/manifests.yaml`. */
export const webhookManifestGenerator: ManifestGenerator = {
  name: 'webhook',
  markers: [webhookMarkers.webhook, webhookMarkers.configuration],
  generate(context) {
    // `+kubebuilder:webhook` is a prefix of `+kubebuilder:webhookconfiguration` too.
    const files = sourcesMentioning(context.root, [`+${webhookMarkers.webhook.name}`]);
    const markerContext = { ...context, displayPath: (file: SourceFile) => displayPath(context.root, file) };
    const markers = readWebhookMarkers(files, markerContext);
    const configurations = generateWebhookConfigurations(
      markers.webhooks,
      markers.configurations,
      context.diagnostics,
    );
    return configurations.length === 0
      ? []
      : [{ path: WEBHOOK_FILE, content: writeYamlDocuments(configurations) }];
  },
};
