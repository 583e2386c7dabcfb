import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import { pointAtWebhookServer } from '../../../src/runtime/webhook/local-webhook-configuration.ts';

const target = {
  clientConfig: (path: string) => ({ url: `https://127.0.0.1:9443${path}`, caBundle: 'Q0E=' }),
};

describe('pointAtWebhookServer', () => {
  it('points every webhook of a generated configuration at the local server, keeping its path', () => {
    const generated = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'v' },
      webhooks: [
        {
          name: 'a',
          clientConfig: { service: { name: 'webhook-service', namespace: 'system', path: '/validate-a' } },
        },
        { name: 'b', clientConfig: { url: 'https://elsewhere:443/validate-b' } },
      ],
    };
    const local = pointAtWebhookServer(generated, target);
    assert.deepEqual(
      local.webhooks.map((w) => w.clientConfig),
      [
        { url: 'https://127.0.0.1:9443/validate-a', caBundle: 'Q0E=' },
        { url: 'https://127.0.0.1:9443/validate-b', caBundle: 'Q0E=' },
      ],
    );
    assert.equal(
      generated.webhooks[0]?.clientConfig.service?.path,
      '/validate-a',
      'the input is left as it was',
    );
  });

  // A test serving v1's webhooks must not install v2's: with matchPolicy Equivalent the API server
  // would call them for v1's objects too, and fail on a path nothing serves.
  it('leaves out the webhooks at paths the target does not serve', () => {
    const generated = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'm' },
      webhooks: [
        { name: 'v1', clientConfig: { service: { name: 's', namespace: 'n', path: '/mutate-v1' } } },
        { name: 'v2', clientConfig: { service: { name: 's', namespace: 'n', path: '/mutate-v2' } } },
      ],
    };
    const local = pointAtWebhookServer(generated, { ...target, paths: ['/mutate-v1', '/convert'] });
    assert.deepEqual(
      local.webhooks.map((w) => w.name),
      ['v1'],
    );
  });

  it("points a CRD's conversion webhook at /convert, and leaves other manifests alone", () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      spec: {
        conversion: {
          strategy: 'Webhook',
          webhook: { clientConfig: { service: { name: 's', namespace: 'n' } } },
        },
      },
    };
    assert.deepEqual(pointAtWebhookServer(crd, target).spec.conversion.webhook.clientConfig, {
      url: 'https://127.0.0.1:9443/convert',
      caBundle: 'Q0E=',
    });
    const other: KubernetesObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } };
    assert.deepEqual(pointAtWebhookServer(other, target), other);
  });
});
