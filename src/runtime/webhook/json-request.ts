import type { IncomingMessage } from 'node:http';
import { MalformedRequestError } from './malformed-request-error.ts';

/** Reads a POSTed JSON body of at most `maxBytes`; throws MalformedRequestError saying what is wrong. */
export async function readJsonRequest(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  if (req.method !== 'POST') throw new MalformedRequestError(`method ${req.method ?? ''} is not POST`, 405);
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
  if (contentType !== 'application/json')
    throw new MalformedRequestError(`content type "${contentType ?? ''}" is not application/json`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new MalformedRequestError(`the body is larger than ${maxBytes} bytes`, 413);
    chunks.push(chunk);
  }
  if (size === 0) throw new MalformedRequestError('the body is empty');
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (err) {
    throw new MalformedRequestError(`the body is not JSON: ${(err as Error).message}`);
  }
}
