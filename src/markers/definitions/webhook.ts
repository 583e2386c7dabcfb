import { fieldsMarker } from '../definition.ts';

const category = 'Webhook';

/** `+kubebuilder:webhook` and `+kubebuilder:webhookconfiguration`: config/webhook/manifests.yaml. */
export const webhookMarkers = {
  webhook: fieldsMarker(
    {
      name: 'kubebuilder:webhook',
      targets: ['package'],
      category,
      help: 'an admission webhook the manager serves',
    },
    {
      mutating: { type: 'bool', help: 'a mutating webhook (validating when false)' },
      failurePolicy: { type: 'string', help: 'Fail or Ignore' },
      matchPolicy: { type: 'string', optional: true, help: 'Exact or Equivalent' },
      sideEffects: { type: 'string', optional: true, help: 'None or NoneOnDryRun' },
      timeoutSeconds: { type: 'int', optional: true, help: '1 to 30' },
      groups: { type: { list: 'string' }, help: 'API groups; "" or core for the core group' },
      resources: { type: { list: 'string' } },
      verbs: { type: { list: 'string' }, help: 'create, update, delete, connect or *' },
      versions: { type: { list: 'string' } },
      name: { type: 'string', help: 'the webhook name, a domain of three or more segments' },
      serviceName: { type: 'string', optional: true, help: 'Default: webhook-service' },
      serviceNamespace: { type: 'string', optional: true, help: 'Default: system' },
      servicePort: { type: 'int', optional: true, help: 'Default: 443' },
      path: {
        type: 'string',
        optional: true,
        help: 'the path served, e.g. /validate-<group>-<version>-<kind>',
      },
      url: { type: 'string', optional: true, help: 'an external URL instead of the service' },
      webhookVersions: { type: { list: 'string' }, optional: true, help: 'only v1' },
      admissionReviewVersions: { type: { list: 'string' }, help: 'e.g. v1' },
      reinvocationPolicy: { type: 'string', optional: true, help: 'Never or IfNeeded (mutating only)' },
      patch: { type: 'string', optional: true, help: 'a JSON merge patch applied to the generated webhook' },
    },
  ),
  configuration: fieldsMarker(
    {
      name: 'kubebuilder:webhookconfiguration',
      targets: ['package'],
      category,
      help: 'names the Mutating or ValidatingWebhookConfiguration',
    },
    {
      mutating: { type: 'bool' },
      name: { type: 'string', optional: true },
    },
  ),
};
