import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { CertificateAuthority, type CertKeyPair } from '../../../src/runtime/tls/certificate-authority.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';
import { eventually } from '../../support/eventually.ts';
import { AppKind } from './support.ts';

/** Which of `cas` signed the certificate a new TLS connection to `port` is served with, if any. */
function servedBy(port: number, cas: Record<string, CertificateAuthority>): Promise<string | undefined> {
  return Promise.all(
    Object.entries(cas).map(
      ([name, ca]) =>
        new Promise<string | undefined>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port, ca: ca.cert, servername: 'localhost' }, () => {
            socket.end();
            resolve(name);
          });
          socket.on('error', () => resolve(undefined));
        }),
    ),
  ).then((names) => names.find((n) => n !== undefined));
}

describe('WebhookServer with a certificate folder', () => {
  const first = CertificateAuthority.create('first');
  const second = CertificateAuthority.create('second');
  const issue = (ca: CertificateAuthority): CertKeyPair =>
    ca.issue({ commonName: 'webhook', usage: 'server', hosts: ['localhost', '127.0.0.1'] });
  let dir: string;
  let server: WebhookServer;
  let port: number;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'webhook-certs-'));
    const pair = issue(first);
    await writeFile(join(dir, 'tls.crt'), pair.cert);
    await writeFile(join(dir, 'tls.key'), pair.key);
    server = new WebhookServer({ port: 0, host: '127.0.0.1', certDir: dir, registry: new Registry() });
    server.registerValidator(AppKind, {});
    port = (await server.start()).port;
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("serves the folder's certificate, and without a ca.crt has callers trust that certificate", async () => {
    assert.equal(await servedBy(port, { first, second }), 'first');
    const served = await readFile(join(dir, 'tls.crt'), 'utf8');
    assert.equal(server.caBundle, served);
    assert.deepEqual(server.clientConfig('/convert'), {
      url: `https://127.0.0.1:${port}/convert`,
      caBundle: Buffer.from(served).toString('base64'),
    });
  });

  it('serves new connections with the new pair once both files are rewritten, one after the other', async () => {
    const pair = issue(second);
    // The certificate lands before its key: the mismatched pair in between must not be served.
    await writeFile(join(dir, 'tls.crt'), pair.cert);
    await writeFile(join(dir, 'tls.key'), pair.key);
    await eventually(
      async () => ((await servedBy(port, { first, second })) === 'second' ? true : undefined),
      'the server to present the certificate signed by the second CA',
    );
  });

  it('refuses to start when the folder holds no certificate', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'webhook-empty-'));
    const other = new WebhookServer({ port: 0, certDir: empty, registry: new Registry() });
    await assert.rejects(other.start(), /ENOENT.*tls\.crt/);
    await rm(empty, { recursive: true, force: true });
  });
});
