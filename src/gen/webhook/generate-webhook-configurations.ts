import type { DiagnosticList } from '../../markers/diagnostic-list.ts';
import { DiagnosticCodes } from '../../markers/diagnostic.ts';
import { compareBytes } from '../byte-order.ts';
import { webhookEntry } from './webhook-entry.ts';
import type { WebhookConfigurationMarker, WebhookMarker } from './webhook-marker.ts';
import type { WebhookConfigurationManifest, WebhookEntry } from './webhook-manifest.ts';

/**
 * The MutatingWebhookConfiguration and ValidatingWebhookConfiguration (each only when it has
 * webhooks) that webhook markers describe, with webhooks sorted by name and the default names
 * Kubebuilder's kustomize config expects, as controller-gen writes config/webhook/manifests.yaml.
 *
 * @example
 * const diagnostics = new DiagnosticList();
 * generateWebhookConfigurations(markers, [], diagnostics);
 * diagnostics.throwIfErrors();
 */
export function generateWebhookConfigurations(
  markers: readonly WebhookMarker[],
  configurations: readonly WebhookConfigurationMarker[],
  diagnostics: DiagnosticList,
): WebhookConfigurationManifest[] {
  const names = configurationNames(configurations, diagnostics);
  const manifests: WebhookConfigurationManifest[] = [];
  for (const mutating of [true, false]) {
    const webhooks = markers
      .filter((marker) => marker.mutating === mutating)
      .map((marker) => webhookEntry(marker, diagnostics))
      .filter((entry): entry is WebhookEntry => entry !== undefined)
      .sort((a, b) => compareBytes(a.name, b.name));
    if (webhooks.length === 0) continue;
    manifests.push({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
      metadata: {
        name: names.get(mutating) || (mutating ? 'mutating' : 'validating') + '-webhook-configuration',
      },
      webhooks,
    });
  }
  return manifests;
}

/** The configuration names set by `+kubebuilder:webhookconfiguration`, at most one per kind. */
function configurationNames(
  configurations: readonly WebhookConfigurationMarker[],
  diagnostics: DiagnosticList,
): Map<boolean, string | undefined> {
  const names = new Map<boolean, string | undefined>();
  for (const configuration of configurations) {
    if (names.has(configuration.mutating)) {
      const kind = configuration.mutating ? 'mutating' : 'validating';
      diagnostics.error(
        DiagnosticCodes.conflictingMarkers,
        `a second ${kind} +kubebuilder:webhookconfiguration marker; keep one per project`,
        configuration.location,
      );
      continue;
    }
    names.set(configuration.mutating, configuration.name);
  }
  return names;
}
