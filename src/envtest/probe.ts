import { request } from 'node:https';
import { request as httpRequest } from 'node:http';

export interface ClientTls {
  ca: string;
  cert?: string;
  key?: string;
  /** Default: true. Off only for self-signed endpoints whose identity does not matter (health probes). */
  rejectUnauthorized?: boolean;
}

/** The HTTP status of a GET over TLS, or an error when the server does not answer within 5 s. */
export function httpsStatus(url: string, tls: ClientTls): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', ...tls, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

/** The HTTP status of a plain-HTTP GET, or an error when the server does not answer within 5 s. */
export function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', agent: false, timeout: 5000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
    req.end();
  });
}
