import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { LineSplitter } from '../../../src/runtime/cache/line-splitter.ts';
import { watchEvents, type WatchEvent } from '../../../src/runtime/cache/watch-events.ts';

const MB = 1 << 20;

/** A watch event whose line is about `bytes` long, with multi-byte characters throughout. */
const bigEvent = (bytes: number): WatchEvent => ({
  type: 'MODIFIED',
  object: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'big', namespace: 'ns', resourceVersion: '7' },
    data: { blob: 'é€😀x'.repeat(Math.floor(bytes / 10)) },
  } as WatchEvent['object'],
});

/** `bytes` cut into chunks of `size`, as a socket may deliver them. */
const chunked = (bytes: Buffer, size: number): Buffer[] => {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
};

/** Splits `events` sent as one stream in chunks of `size`; returns the lines and the bytes scanned. */
const split = (events: WatchEvent[], size: number): { lines: string[]; scanned: number; sent: number } => {
  const wire = Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
  const splitter = new LineSplitter();
  const lines = chunked(wire, size).flatMap((c) => splitter.push(c).map((l) => l.toString('utf8')));
  return { lines, scanned: splitter.scannedBytes, sent: wire.length };
};

describe('watch events', () => {
  it('parses an event of several MB delivered in many small chunks', async () => {
    const small: WatchEvent = { type: 'BOOKMARK', object: { metadata: { resourceVersion: '8' } } };
    const big = bigEvent(6 * MB);
    const wire = Buffer.from(`${JSON.stringify(big)}\n${JSON.stringify(small)}\n`, 'utf8');
    // 1021 bytes: chunk boundaries fall inside multi-byte characters.
    const res = Readable.from(chunked(wire, 1021));
    const events: WatchEvent[] = [];
    for await (const event of watchEvents(res)) events.push(event);
    assert.equal(events.length, 2);
    assert.deepEqual(events[0], big);
    assert.deepEqual(events[1], small);
  });

  it('scans each byte once: 8 MB costs eight times 1 MB, whatever the chunking', () => {
    const one = split([bigEvent(MB)], 512);
    const eight = split([bigEvent(8 * MB)], 512);
    assert.equal(one.scanned, one.sent);
    assert.equal(eight.scanned, eight.sent);
    assert.ok(eight.sent > 7.9 * one.sent && eight.sent < 8.1 * one.sent);
    assert.deepEqual(JSON.parse(eight.lines[0] ?? ''), bigEvent(8 * MB));
  });

  it('splits many events per chunk and events across chunks alike', () => {
    const events: WatchEvent[] = Array.from({ length: 50 }, (_, i) => ({
      type: 'ADDED',
      object: { metadata: { name: `cm-${i}`, resourceVersion: String(i + 1) } },
    }));
    for (const size of [1, 7, 64, 100_000]) {
      const { lines } = split(events, size);
      assert.deepEqual(
        lines.map((l) => JSON.parse(l) as WatchEvent),
        events,
        `chunks of ${size} bytes`,
      );
    }
  });

  it('throws when the connection ends before the response does', async () => {
    // The body's first bytes come, then the connection goes without an end of the body.
    const res = new Readable({ read: () => undefined });
    res.push(Buffer.from('{"type":"ADDED","object":{}}\n{"ty'));
    setImmediate(() => res.destroy());
    const events: WatchEvent[] = [];
    await assert.rejects(async () => {
      for await (const event of watchEvents(res)) events.push(event);
    }, /closed before the response ended/);
    assert.equal(events.length, 1);
  });
});
