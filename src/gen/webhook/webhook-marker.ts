import type { SourceLocation } from '../../markers/diagnostic.ts';

/**
 * The arguments of one `+kubebuilder:webhook` marker, as controller-gen reads them: lists are the
 * `;`-separated values; `location` is where the marker stands, for error messages.
 */
export interface WebhookMarker {
  readonly mutating: boolean;
  readonly failurePolicy: string;
  readonly matchPolicy?: string;
  readonly sideEffects?: string;
  readonly timeoutSeconds?: number;
  readonly groups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly versions: readonly string[];
  readonly name: string;
  readonly serviceName?: string;
  readonly serviceNamespace?: string;
  readonly servicePort?: number;
  readonly path?: string;
  readonly url?: string;
  readonly webhookVersions?: readonly string[];
  readonly admissionReviewVersions: readonly string[];
  readonly reinvocationPolicy?: string;
  /** A strategic merge patch (JSON) applied to the generated webhook. */
  readonly patch?: string;
  readonly location: SourceLocation;
}

/** A `+kubebuilder:webhookconfiguration` marker: names the Mutating or Validating configuration. */
export interface WebhookConfigurationMarker {
  readonly mutating: boolean;
  readonly name?: string;
  readonly location: SourceLocation;
}
