import type { Http2ServerRequest, Http2ServerResponse, ServerHttp2Session } from 'node:http2';
import { createServer } from 'node:https';
import type { SecureContextOptions } from 'node:tls';
import type { CertKeyPair } from '../tls/certificate-authority.ts';
import type { CertificateSource } from '../tls/certificate-source.ts';
import { connectionCloser } from './connection-closer.ts';
import {
  answerWith,
  listen,
  type ListenOptions,
  type RequestHandler,
  type RunningServer,
} from './http-server.ts';

/** Where and how an HTTPS server listens. */
export interface SecureServerOptions extends ListenOptions {
  /** The serving certificate; each new pair of a watched folder is served without a restart. */
  certificate: CertificateSource;
  /**
   * Also speak HTTP/2 (negotiated with ALPN). Default: false: HTTP/2 stream handling has been open
   * to denial of service (rapid reset, CVE-2023-44487), so Kubebuilder serves HTTP/1.1 only.
   */
  enableHttp2?: boolean;
}

/**
 * Starts an HTTPS server for `handler` (TLS 1.2 or later); resolves once it listens. Plain HTTP
 * sent to it fails the TLS handshake.
 *
 * @example
 * ```ts
 * const server = await startSecureServer(handler, { port: 8443, certificate: fixedCertificate(pair) });
 * ```
 */
export async function startSecureServer(
  handler: RequestHandler,
  options: SecureServerOptions,
): Promise<RunningServer> {
  const { certificate } = options;
  const running = options.enableHttp2
    ? await startHttp2(handler, options)
    : await startHttp1(handler, options);
  return {
    ...running,
    close: async () => {
      certificate.close();
      await running.close();
    },
  };
}

function tlsOptions(pair: CertKeyPair): SecureContextOptions {
  return { cert: pair.cert, key: pair.key, minVersion: 'TLSv1.2' };
}

async function startHttp1(handler: RequestHandler, options: SecureServerOptions): Promise<RunningServer> {
  // Advertising http/1.1 alone makes a client that insists on h2 fail the handshake, not hang.
  const server = createServer(
    { ...tlsOptions(options.certificate.current()), ALPNProtocols: ['http/1.1'] },
    answerWith(handler),
  );
  options.certificate.onChange((pair) => server.setSecureContext(tlsOptions(pair)));
  return listen(server, options, 'https', connectionCloser(server));
}

async function startHttp2(handler: RequestHandler, options: SecureServerOptions): Promise<RunningServer> {
  // The compatibility API's request and response offer what handlers use: method, url, headers,
  // setHeader, writeHead and end.
  const answer = answerWith(handler) as unknown as (
    req: Http2ServerRequest,
    res: Http2ServerResponse,
  ) => void;
  // node:http2 costs about 4 MiB of RSS once loaded, and only a server that enables it needs it.
  const { createSecureServer } = await import('node:http2');
  const server = createSecureServer(
    { ...tlsOptions(options.certificate.current()), allowHTTP1: true },
    answer,
  );
  options.certificate.onChange((pair) => server.setSecureContext(tlsOptions(pair)));
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  return listen(server, options, 'https', () => {
    for (const session of sessions) session.close();
  });
}
