const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const COLON = 0x3a;
const ITEMS_ARRAY = Buffer.from('"items":[');
const CLOSE_LIST = Buffer.from(']}');
const BETWEEN_ITEMS = Buffer.from('},');

/** What a list response says besides its items. */
export interface ListMeta {
  readonly resourceVersion: string;
  readonly continue: string | undefined;
  /** The shard selector the server applied (`metadata.shardInfo.selector`); undefined when it applied none. */
  readonly shardSelector?: string;
}

/** What {@link ListBodyParser} takes. */
export interface ListBodyParserOptions {
  /** Bytes to gather before looking for items to parse: each JSON.parse call costs more than a ConfigMap's parsing. Default: 64 KB. */
  readonly minParseBytes?: number;
}

/** The rest of a list after its last chunk: its last items, and its metadata. */
export interface ListEnd {
  readonly items: unknown[];
  readonly meta: ListMeta;
}

interface WireList {
  readonly items?: unknown[];
  readonly metadata?: {
    readonly resourceVersion?: string;
    readonly continue?: string;
    readonly shardInfo?: { readonly selector?: string };
  };
}

/**
 * Parses a JSON list response as its bytes arrive, so parsing overlaps the transfer and the
 * body is never held whole (as bytes and as a string) beside its objects. No byte is scanned in
 * JavaScript: native searches guess where items end and JSON.parse, which validates, proves it.
 *
 * The body starts with the list's own fields up to `"items":[` (found by search, and kept to
 * parse with the body's last part). Every item of a list is written alike, so each begins with
 * the first item's first key: between two items stand `},` and that key, e.g.
 * `},{"metadata":`. A quote inside a JSON string is always escaped, so that text is never inside
 * a string, but it can be inside an item (a nested object with that key, in an array). So the
 * gathered bytes up to the last such text are parsed as one array of items: if they parse, they
 * were whole items (a cut inside an item leaves its braces open, which JSON.parse rejects);
 * if not, the rest of the body is parsed at the end, at once. A body whose items are written
 * otherwise (with whitespace, or no items) is likewise parsed at the end.
 *
 * @example
 * ```ts
 * const parser = new ListBodyParser();
 * for await (const chunk of res) for (const item of parser.push(chunk)) handle(item);
 * const { items, meta } = parser.end();
 * ```
 */
export class ListBodyParser {
  readonly #minParseBytes: number;
  /** Bytes not parsed yet: from the first unparsed item's start once the head is known, else from the body's start. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The body up to and with the items array's `[`, once found. */
  #head: Buffer | undefined;
  /** `},` and the first item's first key: what stands between two items. */
  #between: Buffer | undefined;
  /** The items are not written as expected: the rest is parsed at the end. */
  #atEnd = false;

  constructor(options: ListBodyParserOptions = {}) {
    this.#minParseBytes = options.minParseBytes ?? 64 * 1024;
  }

  /** Items `chunk` completes, parsed, in order, once enough bytes have gathered (see `minParseBytes`). */
  push(chunk: Buffer): unknown[] {
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    if (this.#atEnd || this.#pendingBytes < this.#minParseBytes) return [];
    let bytes = this.#takePending();
    if (!this.#head) {
      const first = this.#findHead(bytes);
      if (first < 0) {
        // A list's own fields take a few hundred bytes: a body not shaped so is parsed at the end.
        this.#atEnd = true;
        return this.#keep(bytes);
      }
      bytes = bytes.subarray(first);
    }
    return this.#parseWhole(bytes);
  }

  /** The items not handed out yet and the list's metadata, once the whole body was pushed; throws if it is not a whole JSON list. */
  end(): ListEnd {
    const rest = this.#takePending();
    const text = this.#head ? Buffer.concat([this.#head, rest]) : rest;
    const list = JSON.parse(text.toString('utf8')) as WireList | null;
    if (!list || !Array.isArray(list.items ?? [])) throw new SyntaxError('The response is not a list');
    const selector = list.metadata?.shardInfo?.selector;
    const meta = {
      resourceVersion: list.metadata?.resourceVersion ?? '',
      continue: list.metadata?.continue || undefined,
      ...(selector ? { shardSelector: selector } : {}),
    };
    return { items: list.items ?? [], meta };
  }

  /** Finds the head in the body's first bytes and the key that starts each item; returns where the first item starts, -1 if it cannot. */
  #findHead(bytes: Buffer): number {
    const items = bytes.indexOf(ITEMS_ARRAY);
    if (items < 0) return -1;
    const start = items + ITEMS_ARRAY.length;
    const colon = bytes.indexOf(COLON, start);
    if (colon < 0) return -1;
    const head = bytes.subarray(0, start);
    // The head must close as a list with `]}`: the first `"items":[` was the list's own.
    if (bytes[start] !== OPEN_BRACE || !isList(Buffer.concat([head, CLOSE_LIST]))) return -1;
    this.#head = Buffer.from(head);
    this.#between = Buffer.concat([BETWEEN_ITEMS, bytes.subarray(start, colon + 1)]);
    return start;
  }

  /** Parses the whole items at the start of `bytes` (which starts at an item) and keeps the rest. */
  #parseWhole(bytes: Buffer): unknown[] {
    const between = this.#between as Buffer;
    const cut = bytes.lastIndexOf(between);
    if (cut < 0) return this.#keep(bytes);
    const run = Buffer.allocUnsafe(cut + 3);
    run[0] = OPEN_BRACKET;
    bytes.copy(run, 1, 0, cut + 1);
    run[cut + 2] = CLOSE_BRACKET;
    let items: unknown[];
    try {
      items = JSON.parse(run.toString('utf8')) as unknown[];
    } catch {
      // Cut inside an item (or the body is not JSON): `end` parses the rest and tells.
      this.#atEnd = true;
      return this.#keep(bytes);
    }
    this.#keep(bytes.subarray(cut + BETWEEN_ITEMS.length));
    return items;
  }

  #takePending(): Buffer {
    const bytes = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    return bytes;
  }

  #keep(bytes: Buffer): [] {
    if (bytes.length > 0) {
      this.#pending.push(bytes);
      this.#pendingBytes += bytes.length;
    }
    return [];
  }
}

function isList(text: Buffer): boolean {
  try {
    const list = JSON.parse(text.toString('utf8')) as WireList | null;
    return Array.isArray(list?.items);
  } catch {
    return false;
  }
}
