import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { transportFor, type Transport } from '../../../src/runtime/client/transport.ts';
import { restConfigOf } from '../../../src/runtime/config/rest-config-source.ts';
import type { ClientCertificate, Credentials } from '../../../src/runtime/config/rest-config.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { SeverableProxy } from '../../support/severable-proxy.ts';

/** Credentials handing out one client certificate until the test rotates it, as an exec plugin does. */
class RotatingCertificate implements Credentials {
  current: ClientCertificate;

  constructor(first: ClientCertificate) {
    this.current = first;
  }

  get(): Promise<{ clientCertificate: ClientCertificate }> {
    return Promise.resolve({ clientCertificate: this.current });
  }

  rejected(): void {}
}

/** Who the API server says a request authenticated as (SelfSubjectReview). */
async function whoAmI(transport: Transport): Promise<string> {
  const review = await transport.request<{ status?: { userInfo?: { username?: string } } }>({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  return review.status?.userInfo?.username ?? '';
}

describe('a client certificate rotated while connections are dialled', () => {
  let env: Environment;
  let proxy: SeverableProxy;
  let certificates: { readonly one: ClientCertificate; readonly two: ClientCertificate };

  before(async () => {
    env = await startEnvironment();
    const certificateOf = async (name: string): Promise<ClientCertificate> => {
      const { clientCertificate } = restConfigOf((await env.addUser(name, ['system:masters'])).kubeConfig);
      assert.ok(clientCertificate, `${name} authenticates by client certificate`);
      return clientCertificate;
    };
    certificates = { one: await certificateOf('rotated-one'), two: await certificateOf('rotated-two') };
    proxy = await SeverableProxy.start(env.server);
  });
  after(async () => {
    await proxy?.close();
    await env?.stop();
  });

  it('sends a request that asked for its credentials before the rotation on a connection of the new certificate', async () => {
    const credentials = new RotatingCertificate(certificates.one);
    const direct = restConfigOf(env.kubeConfig);
    const transport = transportFor({
      ...direct,
      server: proxy.url,
      clientCertificate: undefined,
      credentials,
    });
    // A distant server: the first connection's TLS handshake takes several round trips of 200 ms.
    proxy.latencyMs = 100;
    const first = whoAmI(transport);
    await eventuallyTrue(() => proxy.connections === 1, 'the first connection being dialled');
    credentials.current = certificates.two;
    const second = whoAmI(transport);
    assert.deepEqual(await Promise.all([first, second]), ['rotated-two', 'rotated-two']);
    assert.equal(proxy.connections, 2, 'the old certificate’s connection, closed, and the new one’s');
  });
});
