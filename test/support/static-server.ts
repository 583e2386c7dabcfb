import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

/** A folder served over HTTP on loopback; disposing it closes the server. */
export interface StaticServer extends AsyncDisposable {
  /** The origin, e.g. http://127.0.0.1:41234, with no trailing slash. */
  readonly origin: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/**
 * The file a URL path names, as a static host serves a built site: a folder's index.html, and a
 * path without extension as its .html page. Undefined when there is none or it leaves the folder.
 */
export async function fileForPath(root: string, urlPath: string): Promise<string | undefined> {
  const decoded: string = decodeURIComponent(urlPath);
  const candidates: string[] = decoded.endsWith('/')
    ? [`${decoded}index.html`]
    : [decoded, `${decoded}.html`];
  for (const candidate of candidates) {
    const file: string = normalize(join(root, candidate));
    if (file !== root && !file.startsWith(root + sep)) return undefined;
    if (await isFile(file)) return file;
  }
  return undefined;
}

async function respond(root: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path: string = new URL(request.url ?? '/', 'http://localhost').pathname;
  const file: string | undefined = await fileForPath(root, path);
  if (file === undefined) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}\n`);
    return;
  }
  const type: string = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
  response.writeHead(200, { 'content-type': type }).end(await readFile(file));
}

/** Serves root on 127.0.0.1 at a free port. */
export async function serveFolder(root: string): Promise<StaticServer> {
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    respond(root, request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    [Symbol.asyncDispose]: async (): Promise<void> => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
