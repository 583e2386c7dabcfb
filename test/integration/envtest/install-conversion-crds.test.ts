import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { installConversionCrds, startEnvironment } from '../../../src/envtest/index.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';
import {
  WebAppKind,
  WebAppV2Kind,
  webAppV2Conversion,
  webappsCrd,
  type WebAppV2,
} from '../webhook/webapp.ts';

test('installConversionCrds: the API server converts between versions through the local server', async (t) => {
  await using env = await startEnvironment();
  const server = new WebhookServer({ port: 0, host: '127.0.0.1' });
  server.registerConversion(WebAppKind, { v2: webAppV2Conversion });
  const running = await server.start();
  t.after(() => running.close());

  const [crd] = await installConversionCrds(env, dirname(webappsCrd), {
    url: running.url,
    caBundle: server.caBundle ?? '',
  });

  assert.equal(crd?.spec.conversion?.webhook?.clientConfig?.url, `${running.url}/convert`);
  const client = newClient({ kubeConfig: env.kubeConfig });
  const created = await client.create<WebAppV2>({
    apiVersion: WebAppV2Kind.apiVersion,
    kind: WebAppV2Kind.kind,
    metadata: { name: 'converted', namespace: 'default' },
    spec: { instances: 3, container: { image: 'nginx:1.27' } },
  });
  assert.equal(created.spec?.instances, 3);
  const asV1 = await client.get(WebAppKind, { namespace: 'default', name: 'converted' });
  assert.deepEqual(asV1?.spec, { replicas: 3, image: 'nginx:1.27' });
});
