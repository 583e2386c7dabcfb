import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { describe, it } from 'node:test';
import { CertificateAuthority } from '../../../src/runtime/tls/certificate-authority.ts';

describe('CertificateAuthority', () => {
  const ca = CertificateAuthority.create('test-ca');

  it('makes a self-signed CA certificate', () => {
    const cert = new X509Certificate(ca.cert);
    assert.equal(cert.subject, 'CN=test-ca');
    assert.equal(cert.ca, true);
    assert.equal(cert.verify(cert.publicKey), true);
  });

  it('issues a serving certificate for DNS names and IPs, signed by the CA', () => {
    const pair = ca.issue({
      commonName: 'webhook',
      usage: 'server',
      hosts: ['localhost', 'svc.ns.svc', '127.0.0.1', '::1'],
    });
    const cert = new X509Certificate(pair.cert);
    assert.equal(cert.checkIssued(new X509Certificate(ca.cert)), true);
    assert.equal(cert.verify(new X509Certificate(ca.cert).publicKey), true);
    assert.equal(
      cert.subjectAltName,
      'DNS:localhost, DNS:svc.ns.svc, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    );
    assert.equal(cert.checkPrivateKey(createPrivateKey(pair.key)), true);
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    assert.equal(cert.ca, false);
  });

  it('puts organizations in the subject, as Kubernetes reads groups', () => {
    const pair = ca.issue({ commonName: 'alice', organizations: ['dev', 'system:masters'], usage: 'client' });
    const cert = new X509Certificate(pair.cert);
    assert.equal(cert.subject, 'O=dev\nO=system:masters\nCN=alice');
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  });

  it('works for a real TLS handshake with client authentication', async () => {
    const serving = ca.issue({ commonName: 'server', usage: 'server', hosts: ['127.0.0.1'] });
    const client = ca.issue({ commonName: 'bob', usage: 'client' });
    const server = createServer(
      { ...serving, ca: ca.cert, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        res.end(peer.subject.CN);
      },
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port, ca: ca.cert, ...client }, (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (d: string) => (text += d))
            .on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });
      assert.equal(body, 'bob');
    } finally {
      server.close();
    }
  });
});
