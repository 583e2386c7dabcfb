import { request } from 'node:https';

/** What an HTTPS server answered. */
export interface HttpsAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * GETs `url` over HTTPS trusting only `ca` (or, without one, any certificate: for self-signed
 * servers), with `Authorization: Bearer <token>` when given, on a fresh connection (no keep-alive,
 * so servers close promptly).
 */
export function httpsGet(url: string, options: { ca?: string; token?: string }): Promise<HttpsAnswer> {
  const headers = options.token ? { authorization: `Bearer ${options.token}` } : {};
  return new Promise((resolve, reject) => {
    const trust = options.ca ? { ca: options.ca } : { rejectUnauthorized: false };
    const req = request(url, { ...trust, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
