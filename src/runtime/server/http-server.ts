import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { connectionCloser } from './connection-closer.ts';
import { nodeHttp } from './node-http.ts';

/** Answers one request. A rejection is answered with 500. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Where a server listens. */
export interface ListenOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface to bind. Default: all interfaces. */
  host?: string;
}

/** A listening HTTP or HTTPS server. */
export interface RunningServer {
  /** `http://host:port` or `https://host:port` as bound, for probes and tests. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and closes idle ones; resolves once the server is closed. */
  close(): Promise<void>;
}

/** Starts a plain HTTP server for `handler`; resolves once it listens. */
export function startHttpServer(handler: RequestHandler, options: ListenOptions): Promise<RunningServer> {
  const server = nodeHttp.createServer(answerWith(handler));
  return listen(server, options, 'http', connectionCloser(server));
}

/** A request listener that runs `handler` and answers 500 when it rejects. */
export function answerWith(handler: RequestHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handler(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`internal server error: ${err instanceof Error ? err.message : String(err)}\n`);
    });
  };
}

/**
 * Listens on `options` and resolves once listening; the RunningServer's `close` stops accepting and
 * calls `closeIdle` so that kept-alive connections do not hold the close open.
 */
export async function listen(
  server: Server,
  options: ListenOptions,
  scheme: 'http' | 'https',
  closeIdle: () => void,
): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `${scheme}://${host}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        closeIdle();
      }),
  };
}

/** Writes a plain-text response. */
export function sendText(
  res: ServerResponse,
  status: number,
  body: string,
  contentType = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, { 'content-type': contentType, 'x-content-type-options': 'nosniff' });
  res.end(body);
}
