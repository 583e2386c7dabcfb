import type { Readable } from 'node:stream';
import type { KubeObject } from '../api/kube-object.ts';
import { LineSplitter } from './line-splitter.ts';

/** One event of a watch stream. ERROR events carry a Status as `object`. */
export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: KubeObject;
}

/**
 * The events of a watch response, one JSON object per line, parsed in time linear in their size.
 * Ends when the server ends the response; throws when the connection breaks first, so a dead
 * server is never mistaken for a watch that timed out.
 */
export async function* watchEvents(res: Readable): AsyncGenerator<WatchEvent> {
  const lines = new LineSplitter();
  try {
    for await (const chunk of res) {
      for (const line of lines.push(chunk as Buffer)) {
        const text = line.toString('utf8');
        if (text.trim() !== '') yield JSON.parse(text) as WatchEvent;
      }
    }
  } catch (err) {
    // A stream closed without an error of its own: an HTTP/2 stream whose connection went away.
    if ((err as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') {
      throw new Error(CLOSED_EARLY, { cause: err });
    }
    throw err;
  }
  if (!res.readableEnded) throw new Error(CLOSED_EARLY);
}

const CLOSED_EARLY = 'The watch connection closed before the response ended';
