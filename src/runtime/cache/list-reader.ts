import type { KubeObject } from '../api/kube-object.ts';
import type { Kind } from '../client/kind.ts';
import type { Transport } from '../client/transport.ts';
import { ListBodyParser } from './list-body-parser.ts';
import { readChunks } from './response-chunks.ts';

/**
 * How long a list response may send nothing before it is dropped as a dead connection. The API
 * server sends a list as fast as it encodes it; client-go's HTTP/2 health check likewise gives a
 * silent connection 30 s.
 */
const LIST_IDLE_TIMEOUT_MS = 30_000;

/** What a list response says besides its items: where it was read, and the next page's token. */
export interface ListRead {
  readonly resourceVersion: string;
  readonly continue?: string;
  /** The shard selector the server applied, as it echoed it. */
  readonly shardSelector?: string;
}

/**
 * One list request (`path` with its query), its items handed to `onItems` as the body arrives
 * (see {@link ListBodyParser}), with apiVersion and kind set, which built-in lists leave out. The
 * body has no overall deadline, for a large list may take long: only a silence of 30 s ends it.
 * Rejects with an ApiError when the server refuses the list, and with whatever `onItems` throws.
 * `accept` asks for another media type (a metadata-only list); default: JSON.
 */
export async function readList(
  transport: Transport,
  kind: Kind,
  path: string,
  signal: AbortSignal,
  onItems: (items: readonly KubeObject[]) => void,
  accept?: string,
): Promise<ListRead> {
  const idle = new AbortController();
  // From the answer's head on: the transport bounds the wait for it, and the 429s it waits out.
  let timer: NodeJS.Timeout | undefined;
  try {
    const res = await transport.stream(path, AbortSignal.any([signal, idle.signal]), accept);
    timer = setTimeout(
      () => idle.abort(new Error(`GET ${path}: no data for ${LIST_IDLE_TIMEOUT_MS / 1000} s`)),
      LIST_IDLE_TIMEOUT_MS,
    );
    const parser = new ListBodyParser();
    const hand = (items: KubeObject[]): void => {
      for (const item of items) {
        item.apiVersion = kind.apiVersion;
        item.kind = kind.kind;
      }
      if (items.length > 0) onItems(items);
    };
    await readChunks(res, (chunk) => {
      timer?.refresh();
      hand(parser.push(chunk) as KubeObject[]);
    });
    const { items, meta } = parser.end();
    hand(items as KubeObject[]);
    return {
      resourceVersion: meta.resourceVersion,
      ...(meta.continue ? { continue: meta.continue } : {}),
      ...(meta.shardSelector ? { shardSelector: meta.shardSelector } : {}),
    };
  } catch (err) {
    throw idle.signal.aborted && !signal.aborted ? (idle.signal.reason as Error) : err;
  } finally {
    clearTimeout(timer);
  }
}
