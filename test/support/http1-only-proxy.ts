import assert from 'node:assert/strict';
import type { RestConfig } from '../../src/runtime/config/rest-config.ts';
import { CertificateAuthority } from '../../src/runtime/tls/certificate-authority.ts';
import { SeverableProxy } from './severable-proxy.ts';

/**
 * A proxy before the API server of `direct` that ends TLS and speaks HTTP/1.1 alone, as some load
 * balancers do, and a config for a client of it: the proxy's address and CA, and no client
 * certificate (the proxy authenticates upstream with `direct`'s).
 */
export async function http1OnlyProxy(
  direct: RestConfig,
): Promise<{ proxy: SeverableProxy; config: RestConfig }> {
  const ca = CertificateAuthority.create('http1-proxy');
  const serving = ca.issue({ commonName: 'proxy', hosts: ['127.0.0.1'], usage: 'server' });
  const { clientCertificate, ca: serverCa } = direct;
  assert.ok(clientCertificate && serverCa, 'the API server authenticates by client certificate');
  const proxy = await SeverableProxy.start(direct.server, {
    alpnProtocols: ['http/1.1'],
    serving,
    upstream: { ca: serverCa, ...clientCertificate },
  });
  const config: RestConfig = { ...direct, server: proxy.url, ca: ca.cert, clientCertificate: undefined };
  return { proxy, config };
}
