import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { V1CustomResourceConversion } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import type { Json } from '../../../src/runtime/api/json.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import { CustomResourceDefinitionKind } from '../../../src/runtime/client/kinds.ts';
import { CertificateAuthority } from '../../../src/runtime/tls/certificate-authority.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';
import type { WebhookServerOptions } from '../../../src/runtime/webhook/webhook-server-options.ts';
import { mutatePath } from '../../../src/runtime/webhook/webhook-paths.ts';
import {
  CONVERSION_BEFORE_LOCAL,
  installLocalConversions,
} from '../../../src/runtime/webhook/install-local-conversions.ts';
import { eventually } from '../../support/eventually.ts';
import { runInBackground, testManager, WidgetKind, widgetsCrd, type Widget } from '../controller/support.ts';
import { webappsCrd, WebAppKind, webAppV2Conversion, WebAppV2Kind, type WebApp } from './webapp.ts';

/** The conversion of testdata/webapps.yaml, as `npm run install-crds` installs it. */
const INSTALLED_CONVERSION = {
  strategy: 'Webhook',
  webhook: {
    clientConfig: { service: { name: 'webhook-service', namespace: 'system', path: '/convert', port: 443 } },
    conversionReviewVersions: ['v1'],
  },
};

describe('a manager run outside the cluster with webhookInstallLocal', () => {
  let env: Environment;
  let dir: string;
  before(async () => {
    // The WebApp CRD as `npm run install-crds` installs it: converting through the in-cluster
    // Service, which does not exist here.
    env = await startEnvironment({ crdPaths: [widgetsCrd, webappsCrd] });
    dir = await mkdtemp(join(tmpdir(), 'tsoperator-local-webhooks-'));
  });
  after(async () => {
    await env.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('points the generated webhook configuration at itself, so the API server calls its defaulter', async () => {
    // As `tsoperator manifests` writes it: the webhook calls the in-cluster Service.
    const manifests = join(dir, 'manifests.yaml');
    await writeFile(
      manifests,
      [
        'apiVersion: admissionregistration.k8s.io/v1',
        'kind: MutatingWebhookConfiguration',
        'metadata:',
        '  name: mutating-webhook-configuration',
        'webhooks:',
        '- admissionReviewVersions: [v1]',
        '  clientConfig:',
        '    service: {name: webhook-service, namespace: system, path: ' + mutatePath(WidgetKind) + '}',
        '  failurePolicy: Fail',
        '  name: mwidget-v1.kb.io',
        '  rules:',
        '  - {apiGroups: [ctrl.tsoperator.dev], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [widgets]}',
        '  sideEffects: None',
        '',
      ].join('\n'),
    );
    const webhookServer = new WebhookServer({ port: 0, host: '127.0.0.1' });
    webhookServer.registerDefaulter<Widget>(WidgetKind, {
      default: (widget) => {
        widget.spec = { mode: 'standard', ...widget.spec };
      },
    });
    const mgr = await testManager(env, { webhookServer, webhookInstallLocal: manifests });
    const run = runInBackground(mgr);
    try {
      const client = newClient({ kubeConfig: env.kubeConfig });
      // The configuration takes a moment to reach the API server's admission chain.
      const created = await eventually(async () => {
        const name = `w-${Date.now()}`;
        const widget = await client.create<Widget>({
          apiVersion: WidgetKind.apiVersion,
          kind: 'Widget',
          metadata: { name, namespace: 'default' },
          spec: { size: 1 },
        });
        return widget.spec?.mode === 'standard' ? widget : undefined;
      }, 'the defaulter to be called by the API server');
      assert.deepEqual(created.spec, { mode: 'standard', size: 1 });
    } finally {
      await run.stop();
    }
  });
  it('points the CRD of a kind it converts at itself: a v1 object reads as the v2 it converts to', async () => {
    // A project with conversions only has no webhook manifests: none is needed.
    const server = convertingServer({ host: '127.0.0.1' });
    await withLocalManager(server, async (client) => {
      await assertReadsAsV2(client, 'generated-ca');
      const crd = await client.get(CustomResourceDefinitionKind, { name: 'webapps.webhook.tsoperator.dev' });
      assert.deepEqual(crd?.spec.conversion, {
        strategy: 'Webhook',
        webhook: {
          clientConfig: {
            url: `${server.url ?? ''}/convert`,
            caBundle: Buffer.from(server.caBundle ?? '').toString('base64'),
          },
          conversionReviewVersions: ['v1'],
        },
      });
    });
    // Stopped, it puts back the Service `npm run install-crds` names, which that can apply again.
    assert.deepEqual(await conversionOfWebApps(), INSTALLED_CONVERSION);
  });

  it('leaves a CRD that another process took over to that process when it stops', async () => {
    const first = convertingServer({ host: '127.0.0.1' });
    const second = convertingServer({ host: '127.0.0.1' });
    await withLocalManager(first, async (client) => {
      await assertReadsAsV2(client, 'first');
      await withLocalManager(second, async () => {
        await eventually(
          async () =>
            (await conversionOfWebApps())?.webhook?.clientConfig?.url?.startsWith(second.url ?? '-')
              ? true
              : undefined,
          'the second process to take the CRD over',
        );
      });
      // The second one put back the conversion from before any local process, kept on the CRD: the
      // first may be gone by then, and its URL would leave the CRD converting through nothing.
      assert.deepEqual(await conversionOfWebApps(), INSTALLED_CONVERSION);
    });
    assert.deepEqual(await conversionOfWebApps(), INSTALLED_CONVERSION);
  });

  it('after a process that died pointing a CRD at itself, the next one puts back the conversion from before', async () => {
    const killed = convertingServer({ host: '127.0.0.1' });
    const running = await killed.start();
    const client = newClient({ kubeConfig: env.kubeConfig });
    // As a manager killed with SIGKILL leaves the CRD: pointed at it, never put back.
    await installLocalConversions(client, killed, killed.convertedKinds);
    await running.close();

    await withLocalManager(convertingServer({ host: '127.0.0.1' }), (next) =>
      assertReadsAsV2(next, 'after-kill'),
    );

    assert.deepEqual(await conversionOfWebApps(), INSTALLED_CONVERSION);
    const crd = await client.get(CustomResourceDefinitionKind, { name: 'webapps.webhook.tsoperator.dev' });
    assert.equal(crd?.metadata?.annotations?.[CONVERSION_BEFORE_LOCAL], undefined);
  });

  it("with a certificate folder, has the API server trust the folder's ca.crt", async () => {
    const ca = CertificateAuthority.create('folder-ca');
    const certDir = await certificateFolder('with-ca', ca, ['127.0.0.1'], { withCa: true });
    const server = convertingServer({ host: '127.0.0.1', certDir });
    await withLocalManager(server, async (client) => {
      await assertReadsAsV2(client, 'folder-ca');
      assert.equal(server.caBundle, ca.cert);
    });
  });

  it('with a certificate folder without ca.crt, pins the served certificate, at a host it names', async () => {
    // Listening on every interface, with a certificate for localhost only: the CRD names localhost.
    const certDir = await certificateFolder(
      'pinned',
      CertificateAuthority.create('unknown-ca'),
      ['localhost'],
      {
        withCa: false,
      },
    );
    const server = convertingServer({ certDir });
    await withLocalManager(server, async (client) => {
      await assertReadsAsV2(client, 'pinned');
      const crd = await client.get(CustomResourceDefinitionKind, { name: 'webapps.webhook.tsoperator.dev' });
      assert.match(
        crd?.spec.conversion?.webhook?.clientConfig?.url ?? '',
        /^https:\/\/localhost:\d+\/convert$/,
      );
    });
  });

  it('refuses a certificate folder whose certificate names no host the API server could call, and stops serving', async () => {
    const ca = CertificateAuthority.create('service-ca');
    const certDir = await certificateFolder('service-only', ca, ['webhook-service.system.svc'], {
      withCa: true,
    });
    const server = convertingServer({ host: '127.0.0.1', certDir });
    const mgr = await testManager(env, {
      webhookServer: server,
      webhookInstallLocal: join(dir, 'absent-manifests.yaml'),
    });
    await assert.rejects(
      mgr.start(new AbortController().signal),
      /valid for none of 127\.0\.0\.1.*give a certificate for localhost/,
    );
    // The webhook server had started: the failed start closes it.
    const { port } = new URL(server.url ?? '');
    await assert.rejects(connect(Number(port)), { code: 'ECONNREFUSED' });
  });

  it('says to install the CRDs when a converted kind has none, and leaves the others as they were', async () => {
    const GadgetKind = defineKind<WebApp>({
      apiVersion: 'ctrl.tsoperator.dev/v1',
      kind: 'Gadget',
      plural: 'gadgets',
      namespaced: true,
    });
    // WebApp's CRD is installed, and pointed at the process first; Gadget's is not.
    const server = convertingServer({ host: '127.0.0.1' });
    server.registerConversion(GadgetKind, { v2: webAppV2Conversion });
    const mgr = await testManager(env, {
      webhookServer: server,
      webhookInstallLocal: join(dir, 'absent.yaml'),
    });
    await assert.rejects(
      mgr.start(new AbortController().signal),
      /the CRD gadgets\.ctrl\.tsoperator\.dev is not installed: run `npm run install-crds`/,
    );
    assert.deepEqual(await conversionOfWebApps(), INSTALLED_CONVERSION);
  });

  /** The WebApp CRD's `spec.conversion` on the API server. */
  async function conversionOfWebApps(): Promise<Json<V1CustomResourceConversion> | undefined> {
    const client = newClient({ kubeConfig: env.kubeConfig });
    const crd = await client.get(CustomResourceDefinitionKind, { name: 'webapps.webhook.tsoperator.dev' });
    return crd?.spec.conversion;
  }

  /** A webhook server converting WebApps, on a free port. */
  function convertingServer(options: WebhookServerOptions): WebhookServer {
    const server = new WebhookServer({ port: 0, registry: new Registry(), ...options });
    server.registerConversion(WebAppKind, { v2: webAppV2Conversion });
    return server;
  }

  /** Runs a manager with `server` and `webhookInstallLocal` while `body` runs. */
  async function withLocalManager(
    server: WebhookServer,
    body: (client: Client) => Promise<void>,
  ): Promise<void> {
    const mgr = await testManager(env, {
      webhookServer: server,
      webhookInstallLocal: join(dir, 'absent-manifests.yaml'),
    });
    const run = runInBackground(mgr);
    try {
      await body(newClient({ kubeConfig: env.kubeConfig }));
    } finally {
      await run.stop();
    }
  }

  /** Creates a v1 WebApp and reads it as v2, which only this process's conversion can answer. */
  async function assertReadsAsV2(client: Client, name: string): Promise<void> {
    await client.create<WebApp>({
      apiVersion: WebAppKind.apiVersion,
      kind: 'WebApp',
      metadata: { name, namespace: 'default' },
      spec: { replicas: 2, image: 'nginx', ports: [80] },
    });
    // The API server picks up the CRD's new clientConfig within a moment.
    const v2 = await eventually(
      () => client.get(WebAppV2Kind, { namespace: 'default', name }).catch(() => undefined),
      `${name} to be read as v2`,
    );
    assert.equal(v2?.apiVersion, 'webhook.tsoperator.dev/v2');
    assert.deepEqual(v2?.spec, { instances: 2, container: { image: 'nginx', ports: [{ port: 80 }] } });
  }

  /** Resolves once a TCP connection to the loopback `port` opens, which it then closes. */
  function connect(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve();
      });
      socket.on('error', reject);
    });
  }

  /** A folder as a kubernetes.io/tls Secret is mounted: tls.crt and tls.key for `hosts`, and ca.crt. */
  async function certificateFolder(
    name: string,
    ca: CertificateAuthority,
    hosts: readonly string[],
    options: { withCa: boolean },
  ): Promise<string> {
    const folder = join(dir, name);
    await mkdir(folder);
    const pair = ca.issue({ commonName: 'webhook', usage: 'server', hosts });
    await writeFile(join(folder, 'tls.crt'), pair.cert);
    await writeFile(join(folder, 'tls.key'), pair.key);
    if (options.withCa) await writeFile(join(folder, 'ca.crt'), ca.cert);
    return folder;
  }
});
