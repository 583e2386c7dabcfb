/** A webhook entry of a Mutating/ValidatingWebhookConfiguration, in its JSON field names. */
export interface WebhookEntry {
  name: string;
  clientConfig: WebhookClientConfig;
  rules: WebhookRule[];
  failurePolicy: string;
  matchPolicy?: string;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions: string[];
  reinvocationPolicy?: string;
  /** Fields a `patch=` argument set, e.g. namespaceSelector or matchConditions. */
  [patched: string]: unknown;
}

export interface WebhookClientConfig {
  url?: string;
  service?: { name: string; namespace: string; path: string; port?: number };
}

export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
}

/** A `admissionregistration.k8s.io/v1` Mutating- or ValidatingWebhookConfiguration. */
export interface WebhookConfigurationManifest {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';
  metadata: { name: string };
  webhooks: WebhookEntry[];
}
