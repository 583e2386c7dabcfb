import type { Socket } from 'node:net';
import type * as TlsModule from 'node:tls';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import type { ClientCertificate, RestConfig } from '../config/rest-config.ts';
import { nodeHttp } from '../server/node-http.ts';

/**
 * TCP keep-alive as Go's dialer sets it on every connection (net.Dialer's defaults since Go 1.23;
 * the idle time has been 15 s since Go 1.13): the first probe after 15 s of silence, then one each
 * 15 s, and the connection is reset after 9 unanswered, about 2.5 minutes after a path died. A
 * watch on a quiet kind is idle for most of each minute between its bookmarks: probes each second
 * would mean traffic on every quiet watch, and a network blackout of a few seconds would reset every
 * connection at once.
 */
export const KEEP_ALIVE_IDLE_MS = 15_000;
const KEEP_ALIVE_INTERVAL_MS = 15_000;
const KEEP_ALIVE_PROBES = 9;

/**
 * Sets Go's TCP keep-alive on `socket`. A Node whose setKeepAlive takes no interval and count
 * ignores them, and probes each second, 10 times, after the 15 s.
 */
export function probeWhenIdle(socket: Socket): void {
  socket.setKeepAlive(true, KEEP_ALIVE_IDLE_MS, KEEP_ALIVE_INTERVAL_MS, KEEP_ALIVE_PROBES);
}

/** Where a connection goes and how it is secured: one API server, one client certificate. */
export interface ServerEndpoint {
  readonly config: RestConfig;
  /** The API server's URL. */
  readonly server: URL;
  readonly clientCertificate: ClientCertificate | undefined;
}

/**
 * Opens a TLS connection to the API server, through its kubeconfig's `proxy-url` when it has one
 * (a CONNECT tunnel, in which TLS and ALPN go end to end, so HTTP/2 passes a proxy that allows the
 * tunnel), offering the ALPN protocols given. The socket's `alpnProtocol` says what the server
 * chose. Rejects when `signal` aborts first. As Go's dialer, it turns Nagle's algorithm off (a
 * request's last partial segment would otherwise wait for the ACK of the one before) and TCP
 * keep-alive on ({@link probeWhenIdle}).
 */
export async function connectToServer(
  endpoint: ServerEndpoint,
  alpnProtocols: readonly string[],
  signal: AbortSignal,
): Promise<TLSSocket> {
  signal.throwIfAborted();
  const { config, server } = endpoint;
  const host = hostOf(server);
  const port = Number(server.port || 443);
  const tunnel = config.proxyUrl ? await tunnelThrough(config.proxyUrl, host, port, signal) : undefined;
  // TLS on a socket given takes no noDelay of its own: the tunnel's is the one that counts.
  tunnel?.setNoDelay(true);
  const tls = process.getBuiltinModule('node:tls');
  const cert = endpoint.clientCertificate;
  const servername = config.tlsServerName ?? host;
  const options: ConnectionOptions = {
    // Through a tunnel, `host` is still the name the certificate is checked against: an address
    // given no servername would otherwise be checked as "localhost".
    ...(tunnel ? { socket: tunnel, host } : { host, port, noDelay: true }),
    ALPNProtocols: [...alpnProtocols],
    // SNI takes a name, never an address.
    ...(process.getBuiltinModule('node:net').isIP(servername) ? {} : { servername }),
    ...(config.tlsServerName ? { checkServerIdentity: tlsNameCheck(config.tlsServerName, tls) } : {}),
    ...(config.ca ? { ca: config.ca } : {}),
    ...(cert ? { cert: cert.cert, key: cert.key } : {}),
    rejectUnauthorized: !config.insecureSkipTlsVerify,
  };
  const socket = tls.connect(options);
  probeWhenIdle(socket);
  return settleOn(socket, 'secureConnect', signal).then(() => socket);
}

/** The server's host as a resolver takes it: an IPv6 host is bracketed in a URL. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The certificate is checked against tls-server-name, not the host dialled. */
function tlsNameCheck(
  name: string,
  tls: typeof TlsModule,
): NonNullable<ConnectionOptions['checkServerIdentity']> {
  return (_host, peerCert) => tls.checkServerIdentity(name, peerCert);
}

/** A CONNECT tunnel to `host:port` through an http(s) proxy, as client-go's proxy dialer opens. */
async function tunnelThrough(
  proxyUrl: string,
  host: string,
  port: number,
  signal: AbortSignal,
): Promise<Socket> {
  const proxy = new URL(proxyUrl);
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new Error(
      `proxy-url ${proxy.protocol}//${proxy.host}: only http:// and https:// proxies are supported; give an HTTP CONNECT proxy`,
    );
  }
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const headers: Record<string, string> = { host: authority };
  if (proxy.username) {
    const user = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(user).toString('base64')}`;
  }
  const request =
    proxy.protocol === 'https:' ? process.getBuiltinModule('node:https').request : nodeHttp.request;
  return new Promise<Socket>((resolve, reject) => {
    const req = request({
      method: 'CONNECT',
      host: hostOf(proxy),
      port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
      path: authority,
      headers,
      agent: false,
      signal,
    });
    req.once('connect', (res, socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(
        new Error(
          `proxy-url ${proxy.host} refused the tunnel to ${authority}: ${res.statusCode} ${res.statusMessage ?? ''}`.trim(),
        ),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

/** Resolves at `event`; rejects (destroying the socket) on an error or an abort before it. */
function settleOn(socket: Socket, event: string, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      socket.destroy();
      done(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const onError = (err: Error): void => done(err);
    const onEvent = (): void => done(undefined);
    function done(err: Error | undefined): void {
      socket.off(event, onEvent);
      socket.off('error', onError);
      signal.removeEventListener('abort', onAbort);
      if (err === undefined) resolve();
      else reject(err);
    }
    socket.once(event, onEvent);
    socket.once('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
