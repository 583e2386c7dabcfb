import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { connect as http2Connect } from 'node:http2';
import { connect as tlsConnect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../../../src/runtime/server/http-server.ts';
import { sendText } from '../../../src/runtime/server/http-server.ts';
import { startSecureServer } from '../../../src/runtime/server/secure-server.ts';
import { CertificateAuthority, type CertKeyPair } from '../../../src/runtime/tls/certificate-authority.ts';
import type { CertificateSource } from '../../../src/runtime/tls/certificate-source.ts';
import { httpsGet } from '../../support/https-get.ts';

const ca = CertificateAuthority.create('test-ca');
const issue = (): CertKeyPair => ca.issue({ commonName: 'server', usage: 'server', hosts: ['127.0.0.1'] });

/** A certificate source the test replaces by hand. */
class SwappableCertificate implements CertificateSource {
  #pair: CertKeyPair = issue();
  readonly #listeners = new Set<(pair: CertKeyPair) => void>();
  closed = false;

  current(): CertKeyPair {
    return this.#pair;
  }

  onChange(listener: (pair: CertKeyPair) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  swap(pair: CertKeyPair): void {
    this.#pair = pair;
    for (const listener of this.#listeners) listener(pair);
  }

  close(): void {
    this.closed = true;
  }
}

const hello = async (_req: unknown, res: Parameters<typeof sendText>[0]): Promise<void> =>
  sendText(res, 200, 'hello\n');

/** What ALPN protocol the server picks when a client offers `protocols`, or the handshake's error. */
function negotiate(server: RunningServer, protocols: string[]): Promise<string | false | Error> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port: server.port,
      ca: ca.cert,
      ALPNProtocols: protocols,
    });
    socket.once('secureConnect', () => {
      resolve(socket.alpnProtocol ?? false);
      socket.end();
    });
    socket.once('error', resolve);
  });
}

/** The fingerprint of the certificate a new connection is served. */
function servedFingerprint(server: RunningServer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: server.port, ca: ca.cert }, () => {
      resolve(socket.getPeerX509Certificate()?.fingerprint256 ?? '');
      socket.end();
    });
    socket.once('error', reject);
  });
}

function http2Get(server: RunningServer): Promise<number> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(server.url, { ca: ca.cert });
    session.once('error', reject);
    const req = session.request({ ':path': '/' });
    req.once('response', (headers) => {
      // Read to the end: an open stream holds the session, and so the server's close, open.
      req.resume();
      req.once('end', () => session.close(() => resolve(Number(headers[':status']))));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('secure server, HTTP/1.1 only (the default)', () => {
  const certificate = new SwappableCertificate();
  let server: RunningServer;
  before(async () => {
    server = await startSecureServer(hello, { port: 0, host: '127.0.0.1', certificate });
  });
  after(() => server.close());

  it('serves HTTPS with the given certificate', async () => {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(await httpsGet(`${server.url}/`, { ca: ca.cert }), { status: 200, body: 'hello\n' });
  });

  it('fails plain HTTP sent to it', async () => {
    await assert.rejects(fetch(`http://127.0.0.1:${server.port}/`));
  });

  it('negotiates http/1.1 when a client offers h2 too, and refuses a client that speaks only h2', async () => {
    assert.equal(await negotiate(server, ['h2', 'http/1.1']), 'http/1.1');
    const refused = await negotiate(server, ['h2']);
    assert.ok(refused instanceof Error, `expected a failed handshake, got ${String(refused)}`);
    await assert.rejects(http2Get(server));
  });

  it('serves a new certificate to new connections once the source has one', async () => {
    const next = issue();
    certificate.swap(next);
    assert.equal(await servedFingerprint(server), new X509Certificate(next.cert).fingerprint256);
  });

  it('closes the certificate source when it closes', async () => {
    const source = new SwappableCertificate();
    const other = await startSecureServer(hello, { port: 0, host: '127.0.0.1', certificate: source });
    await other.close();
    assert.equal(source.closed, true);
  });
});

describe('secure server with enableHttp2', () => {
  let server: RunningServer;
  before(async () => {
    const certificate = new SwappableCertificate();
    server = await startSecureServer(hello, { port: 0, host: '127.0.0.1', certificate, enableHttp2: true });
  });
  after(() => server.close());

  it('negotiates h2 and answers HTTP/2 and HTTP/1.1 clients', async () => {
    assert.equal(await negotiate(server, ['h2', 'http/1.1']), 'h2');
    assert.equal(await http2Get(server), 200);
    assert.deepEqual(await httpsGet(`${server.url}/`, { ca: ca.cert }), { status: 200, body: 'hello\n' });
  });
});
