import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { startHttpServer } from '../../../src/runtime/server/http-server.ts';

describe('closing a server', () => {
  it('ends an unused connection and lets a busy one finish its response first', async () => {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived = (): void => undefined;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await startHttpServer(
      async (_req, res) => {
        arrived();
        await released;
        res.end('done');
      },
      { port: 0, host: '127.0.0.1' },
    );
    // A spare connection that never sends a request, as Go's HTTP transport opens them.
    const spare = connect(server.port, '127.0.0.1');
    const spareClosed = new Promise<void>((resolve) => spare.once('close', () => resolve()));
    await new Promise<void>((resolve) => spare.once('connect', () => resolve()));
    const body = new Promise<string>((resolve, reject) => {
      const req = request(
        `${server.url}/`,
        { agent: false, headers: { connection: 'keep-alive' } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    await requestArrived;
    const closed = server.close();
    await spareClosed;
    release();
    assert.equal(await body, 'done');
    await closed;
  });
});
