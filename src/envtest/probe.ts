import type { ClientRequest, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';

export interface ClientTls {
  ca: string;
  cert?: string;
  key?: string;
  /** Default: true. Off only for self-signed endpoints whose identity does not matter (health probes). */
  rejectUnauthorized?: boolean;
}

/** The HTTP status of a GET over TLS, or an error when the server does not answer within 5 s. */
export function httpsStatus(url: string, tls: ClientTls): Promise<number> {
  return statusOf(url, (onResponse) =>
    request(url, { method: 'GET', ...tls, agent: false, timeout: 5000 }, onResponse),
  );
}

/** The HTTP status of a plain-HTTP GET, or an error when the server does not answer within 5 s. */
export function httpStatus(url: string): Promise<number> {
  return statusOf(url, (onResponse) =>
    httpRequest(url, { method: 'GET', agent: false, timeout: 5000 }, onResponse),
  );
}

function statusOf(
  url: string,
  send: (onResponse: (res: IncomingMessage) => void) => ClientRequest,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = send((res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
    req.end();
  });
}
