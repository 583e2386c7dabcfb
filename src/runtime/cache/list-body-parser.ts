const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const ITEMS_KEY = Buffer.from('"items"');
/** {@link closingQuote} found none, and the chunk ends in an open escape. */
const ESCAPED_AT_END = -2;
/** {@link closingQuote} found none. */
const NOT_CLOSED = -1;

/** What a list response says besides its items. */
export interface ListMeta {
  readonly resourceVersion: string;
  readonly continue: string | undefined;
}

/**
 * Parses a JSON list response (`{"metadata":…,"items":[…]}`, its fields in any order) as its
 * bytes arrive: each chunk's complete items are parsed at once, so parsing overlaps the transfer
 * and the whole body is never held as one Buffer and one string beside its objects. Items are
 * cut out by a scan that follows only strings, braces and brackets; each run of complete items
 * goes through one JSON.parse, which validates it. The rest of the body (a few hundred bytes
 * without the items) is parsed at the end for its metadata.
 *
 * @example
 * ```ts
 * const parser = new ListBodyParser();
 * for await (const chunk of res) for (const item of parser.push(chunk)) handle(item);
 * const { resourceVersion } = parser.end();
 * ```
 */
export class ListBodyParser {
  /** Open objects and arrays at the scan position. */
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** Inside the top-level `items` array. */
  #inItems = false;
  /** Where the string being read at depth 1 (a key, or a value) starts in this chunk; -1 when none is. */
  #keyStart = -1;
  /** The last string read at depth 1: the key of the value that follows. */
  #lastKey: Buffer[] = [];
  /** Bytes of items not yet parsed, from the first incomplete item's start, in earlier chunks. */
  #pending: Buffer[] = [];
  /** Where in the current chunk the unparsed items start; -1 when none has started. */
  #runStart = -1;
  /** The body without its items' content: the list's metadata. */
  #skeleton: Buffer[] = [];
  #skeletonStart = 0;

  /** The items `chunk` completes, parsed, in order. */
  push(chunk: Buffer): unknown[] {
    this.#skeletonStart = this.#inItems ? -1 : 0;
    this.#runStart = this.#pending.length > 0 ? 0 : -1;
    let runEnd = -1;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    for (let i = 0; i < chunk.length; i++) {
      if (inString) {
        const quote = closingQuote(chunk, i, escaped);
        escaped = quote === ESCAPED_AT_END;
        if (quote < 0) break;
        inString = false;
        i = quote;
        if (depth === 1) this.#endKey(chunk, i + 1);
        continue;
      }
      const byte = chunk[i] as number;
      if (byte === QUOTE) {
        inString = true;
        if (depth === 1) this.#startKey(i);
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        depth++;
        if (depth === 2 && byte === OPEN_BRACKET && this.#isItemsKey()) this.#enterItems(chunk, i + 1);
        else if (depth === 3 && this.#inItems && this.#runStart < 0) this.#runStart = i;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        if (depth === 3 && this.#inItems) runEnd = i + 1;
        else if (depth === 2 && this.#inItems) this.#leaveItems(i);
        depth--;
      }
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    // A key that goes on in the next chunk continues from that chunk's start.
    if (this.#keyStart >= 0) {
      this.#lastKey.push(chunk.subarray(this.#keyStart));
      this.#keyStart = 0;
    }
    if (this.#skeletonStart >= 0) this.#skeleton.push(chunk.subarray(this.#skeletonStart));
    return this.#takeRun(chunk, runEnd);
  }

  /** The list's metadata, once the whole body was pushed; throws if it is not a whole JSON list. */
  end(): ListMeta {
    if (this.#depth !== 0 || this.#inString || this.#pending.length > 0)
      throw new SyntaxError('The list response ended before its JSON did');
    const list = JSON.parse(Buffer.concat(this.#skeleton).toString('utf8')) as {
      metadata?: { resourceVersion?: string; continue?: string };
    };
    return {
      resourceVersion: list.metadata?.resourceVersion ?? '',
      continue: list.metadata?.continue || undefined,
    };
  }

  /** Parses the items complete up to `runEnd` in `chunk` (none when -1) and keeps the rest. */
  #takeRun(chunk: Buffer, runEnd: number): unknown[] {
    if (runEnd < 0) {
      if (this.#runStart >= 0) this.#pending.push(chunk.subarray(this.#runStart));
      return [];
    }
    const head = chunk.subarray(this.#runStart, runEnd);
    const bytes = this.#pending.length > 0 ? Buffer.concat([...this.#pending, head]) : head;
    this.#pending = [];
    const rest = this.#nextItemStart(chunk, runEnd);
    if (rest >= 0) this.#pending.push(chunk.subarray(rest));
    return JSON.parse(`[${bytes.toString('utf8')}]`) as unknown[];
  }

  /** Where the first item after `from` starts in `chunk`, -1 if none has started there. */
  #nextItemStart(chunk: Buffer, from: number): number {
    if (!this.#inItems || this.#depth < 3) return -1;
    return chunk.indexOf(OPEN_BRACE, from);
  }

  #startKey(i: number): void {
    this.#keyStart = i;
    this.#lastKey = [];
  }

  #endKey(chunk: Buffer, end: number): void {
    this.#lastKey.push(chunk.subarray(this.#keyStart, end));
    this.#keyStart = -1;
  }

  #isItemsKey(): boolean {
    return !this.#inItems && Buffer.concat(this.#lastKey).equals(ITEMS_KEY);
  }

  #enterItems(chunk: Buffer, after: number): void {
    this.#inItems = true;
    this.#skeleton.push(chunk.subarray(this.#skeletonStart, after));
    this.#skeletonStart = -1;
  }

  #leaveItems(at: number): void {
    this.#inItems = false;
    this.#skeletonStart = at;
  }
}

/**
 * Where the string read from `from` ends in `chunk` (its closing quote), found by indexOf: a quote
 * is escaped when an odd run of backslashes stands before it. `escaped` says the byte at `from`
 * is escaped (the last chunk ended in a backslash). {@link NOT_CLOSED} or
 * {@link ESCAPED_AT_END} when the string goes on in the next chunk.
 */
function closingQuote(chunk: Buffer, from: number, escaped: boolean): number {
  let clean = escaped ? from + 1 : from;
  for (;;) {
    const quote = chunk.indexOf(QUOTE, clean);
    const end = quote < 0 ? chunk.length : quote;
    let backslashes = 0;
    while (end - backslashes - 1 >= clean && chunk[end - backslashes - 1] === BACKSLASH) backslashes++;
    if (quote < 0) return backslashes % 2 === 1 ? ESCAPED_AT_END : NOT_CLOSED;
    if (backslashes % 2 === 0) return quote;
    clean = quote + 1;
  }
}
