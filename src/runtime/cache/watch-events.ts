import type { IncomingMessage } from 'node:http';
import type { KubernetesObject } from '@kubernetes/client-node';

/** One event of a watch stream. ERROR events carry a Status as `object`. */
export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: KubernetesObject;
}

/**
 * The events of a watch response, one JSON object per line. Ends when the server ends the
 * response; throws when the connection breaks first, so a dead server is never mistaken for a
 * watch that timed out.
 */
export async function* watchEvents(res: IncomingMessage): AsyncGenerator<WatchEvent> {
  res.setEncoding('utf8');
  let buffered = '';
  for await (const chunk of res) {
    buffered += chunk as string;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== '') yield JSON.parse(line) as WatchEvent;
      newline = buffered.indexOf('\n');
    }
  }
  if (!res.complete) throw new Error('The watch connection closed before the response ended');
}
