const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const ITEMS_KEY = Buffer.from('"items"');
const COMMA_BYTE = Buffer.from(',');
const METADATA_KEY = Buffer.from('"metadata"');
const MANAGED_FIELDS_KEY = Buffer.from('"managedFields"');
/** Depths of the list object, its items array, an item, and an item's metadata. */
const LIST = 1;
const ITEM = 3;
const METADATA = 4;

/** What a list response says besides its items. */
export interface ListMeta {
  readonly resourceVersion: string;
  readonly continue: string | undefined;
}

/** What {@link ListBodyParser} takes. */
export interface ListBodyParserOptions {
  /**
   * Leave `metadata.managedFields` out of the items, unparsed: for a cache that strips them, they
   * are half the bytes JSON.parse would read and the garbage it would make. Default: false.
   */
  readonly skipManagedFields?: boolean;
  /**
   * Bytes of complete items to gather before one JSON.parse: each call costs more than a
   * ConfigMap's parsing. Default: 64 KB.
   */
  readonly minParseBytes?: number;
}

/** The rest of a list after its last chunk: its last items, and its metadata. */
export interface ListEnd {
  readonly items: unknown[];
  readonly meta: ListMeta;
}

/**
 * Parses a JSON list response (`{"metadata":…,"items":[…]}`, its fields in any order) as its
 * bytes arrive: each chunk's complete items are parsed at once, so parsing overlaps the transfer
 * and the whole body is never held as one Buffer and one string beside its objects. Items are
 * cut out by a scan that follows only strings and structure; each run of complete items goes
 * through one JSON.parse, which validates it. The rest of the body (a few hundred bytes without
 * the items) is parsed at the end for its metadata.
 *
 * Skipped managedFields are cut from the bytes before parsing: the member with the comma before
 * it, when both lie in one chunk (one that a chunk boundary splits is parsed, for the cache's
 * transform to strip).
 *
 * @example
 * ```ts
 * const parser = new ListBodyParser();
 * for await (const chunk of res) for (const item of parser.push(chunk)) handle(item);
 * const { resourceVersion } = parser.end();
 * ```
 */
export class ListBodyParser {
  readonly #skipManagedFields: boolean;
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
  /** Bytes of the item being read, from its start, in earlier chunks. */
  #pending: Buffer[] = [];
  /** Bytes of complete items not parsed yet (a comma between runs), and how many. */
  #complete: Buffer[] = [];
  #completeBytes = 0;
  /** Parse once this many bytes of complete items are waiting. */
  readonly #minParseBytes: number;
  /** Where in the current chunk the unparsed items start; -1 when none has started. */
  #runStart = -1;
  /** The body without its items' content: the list's metadata. */
  #skeleton: Buffer[] = [];
  #skeletonStart = 0;
  /** Ranges of the current chunk left out of the items (start, end, start, end...). */
  #cuts: number[] = [];
  /** The string read at depth 3 or 4 starts here in this chunk (-1: in an earlier one), and is a key. */
  #stringStart = -1;
  #stringIsKey = false;
  /** The last string ended at depth 3 was the key `metadata`, in this chunk. */
  #afterMetadataKey = false;
  /** In an item's metadata object: the next string there is a key; where its last comma is (-1: none in this chunk). */
  #inMetadata = false;
  #expectKey = false;
  #lastComma = -1;
  /** Where the managedFields member being cut starts in this chunk; -1 when none is. */
  #cutStart = -1;

  constructor(options: ListBodyParserOptions = {}) {
    this.#skipManagedFields = options.skipManagedFields ?? false;
    this.#minParseBytes = options.minParseBytes ?? 64 * 1024;
  }

  /** Items `chunk` completes, parsed, in order, once enough have gathered (see `minParseBytes`). */
  push(chunk: Buffer): unknown[] {
    this.#startChunk();
    let runEnd = -1;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    // Keys at depths 3 and 4 matter only to find managedFields (and only in the items).
    const keys = this.#skipManagedFields;
    for (let i = 0; i < chunk.length; i++) {
      if (inString) {
        i = stringEnd(chunk, i, escaped);
        escaped = i < 0;
        if (i < 0 || i === chunk.length) break;
        inString = false;
        if (depth === LIST) this.#endKey(chunk, i + 1);
        else if (keys && (depth === ITEM || depth === METADATA) && this.#inItems)
          this.#endString(chunk, depth, i + 1);
        continue;
      }
      const byte = chunk[i] as number;
      if (byte === QUOTE) {
        inString = true;
        if (depth === LIST) this.#startKey(i);
        else if (keys && (depth === ITEM || depth === METADATA) && this.#inItems) this.#startString(i, depth);
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        depth++;
        if (depth === 2 && byte === OPEN_BRACKET && this.#isItemsKey()) this.#enterItems(chunk, i + 1);
        else if (depth === ITEM && this.#inItems && this.#runStart < 0) this.#runStart = i;
        else if (depth === METADATA) this.#enterObject(byte);
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        if (depth === METADATA) this.#endMember(i, false);
        if (depth === ITEM && this.#inItems) runEnd = i + 1;
        else if (depth === 2 && this.#inItems) this.#leaveItems(i);
        depth--;
      } else if (depth === METADATA && this.#inMetadata) {
        if (byte === COMMA) this.#endMember(i, true);
        else if (byte === COLON) this.#expectKey = false;
      }
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    this.#endChunk(chunk);
    return this.#takeRun(chunk, runEnd);
  }

  /** The items not handed out yet and the list's metadata, once the whole body was pushed; throws if it is not a whole JSON list. */
  end(): ListEnd {
    if (this.#depth !== 0 || this.#inString || this.#pending.length > 0)
      throw new SyntaxError('The list response ended before its JSON did');
    const items = this.#parseComplete();
    const list = JSON.parse(Buffer.concat(this.#skeleton).toString('utf8')) as {
      metadata?: { resourceVersion?: string; continue?: string };
    };
    const meta = {
      resourceVersion: list.metadata?.resourceVersion ?? '',
      continue: list.metadata?.continue || undefined,
    };
    return { items, meta };
  }

  #startChunk(): void {
    this.#skeletonStart = this.#inItems ? -1 : 0;
    this.#runStart = this.#pending.length > 0 ? 0 : -1;
    this.#cuts = [];
    // Positions recorded in the last chunk mean nothing in this one.
    this.#stringStart = -1;
    this.#afterMetadataKey = false;
    this.#lastComma = -1;
    this.#cutStart = -1;
  }

  #endChunk(chunk: Buffer): void {
    // A key that goes on in the next chunk continues from that chunk's start.
    if (this.#keyStart >= 0) {
      this.#lastKey.push(chunk.subarray(this.#keyStart));
      this.#keyStart = 0;
    }
    if (this.#skeletonStart >= 0) this.#skeleton.push(chunk.subarray(this.#skeletonStart));
  }

  /** Gathers the items complete up to `runEnd` in `chunk` (none when -1), keeps the rest, and parses once enough wait. */
  #takeRun(chunk: Buffer, runEnd: number): unknown[] {
    if (runEnd < 0) {
      if (this.#runStart >= 0) this.#pending.push(...this.#kept(chunk, this.#runStart, chunk.length));
      return [];
    }
    // Runs are cut at item ends, so the comma between two runs is added back.
    if (this.#completeBytes > 0) this.#gather([COMMA_BYTE]);
    this.#gather(this.#pending);
    this.#gather(this.#kept(chunk, this.#runStart, runEnd));
    this.#pending = [];
    const rest = this.#nextItemStart(chunk, runEnd);
    if (rest >= 0) this.#pending.push(...this.#kept(chunk, rest, chunk.length));
    return this.#completeBytes >= this.#minParseBytes ? this.#parseComplete() : [];
  }

  #gather(parts: readonly Buffer[]): void {
    for (const part of parts) {
      this.#complete.push(part);
      this.#completeBytes += part.length;
    }
  }

  /** Parses the complete items gathered, as one JSON array copied once into one buffer. */
  #parseComplete(): unknown[] {
    if (this.#completeBytes === 0) return [];
    const bytes = Buffer.allocUnsafe(this.#completeBytes + 2);
    bytes[0] = OPEN_BRACKET;
    let at = 1;
    for (const part of this.#complete) at += part.copy(bytes, at);
    bytes[at] = CLOSE_BRACKET;
    this.#complete = [];
    this.#completeBytes = 0;
    return JSON.parse(bytes.toString('utf8')) as unknown[];
  }

  /** The bytes of `chunk` from `start` to `end` without the cuts. */
  #kept(chunk: Buffer, start: number, end: number): Buffer[] {
    const parts: Buffer[] = [];
    let from = start;
    for (let c = 0; c < this.#cuts.length; c += 2) {
      const [cutStart, cutEnd] = [this.#cuts[c] as number, this.#cuts[c + 1] as number];
      if (cutEnd <= from || cutStart >= end) continue;
      if (cutStart > from) parts.push(chunk.subarray(from, cutStart));
      from = cutEnd;
    }
    if (from < end) parts.push(chunk.subarray(from, end));
    return parts;
  }

  /** Where the first item after `from` starts in `chunk`, -1 if none has started there. */
  #nextItemStart(chunk: Buffer, from: number): number {
    if (!this.#inItems || this.#depth < ITEM) return -1;
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

  #startString(i: number, depth: number): void {
    this.#stringStart = i;
    // At an item's own level a value string is never followed by '{', so any string may be the key.
    this.#stringIsKey = depth === ITEM || this.#expectKey;
  }

  /** A string at depth 3 or 4 ended before `end`: notes the keys that matter for skipping managedFields. */
  #endString(chunk: Buffer, depth: number, end: number): void {
    const start = this.#stringStart;
    const key = start >= 0 && this.#stringIsKey;
    if (depth === ITEM) this.#afterMetadataKey = key && equalAt(chunk, start, end, METADATA_KEY);
    else if (
      key &&
      this.#inMetadata &&
      this.#lastComma >= 0 &&
      equalAt(chunk, start, end, MANAGED_FIELDS_KEY)
    )
      this.#cutStart = this.#lastComma;
  }

  /** An object or array opened at depth 4: an item's metadata when the key before it said so. */
  #enterObject(byte: number): void {
    this.#inMetadata = byte === OPEN_BRACE && this.#afterMetadataKey;
    this.#afterMetadataKey = false;
    this.#expectKey = this.#inMetadata;
    this.#lastComma = -1;
  }

  /** A member of the metadata ends at `at` (a comma, or the closing brace): the end of a cut. */
  #endMember(at: number, comma: boolean): void {
    if (!this.#inMetadata) return;
    if (this.#cutStart >= 0) this.#cuts.push(this.#cutStart, at);
    this.#cutStart = -1;
    if (!comma) {
      this.#inMetadata = false;
      return;
    }
    this.#lastComma = at;
    this.#expectKey = true;
  }
}

/** Whether `chunk` holds `expected` from `start` to `end`; a byte loop, as Buffer.compare costs more for a key. */
function equalAt(chunk: Buffer, start: number, end: number, expected: Buffer): boolean {
  if (end - start !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (chunk[start + i] !== expected[i]) return false;
  return true;
}

/** How many bytes of a string {@link stringEnd} reads one by one before it jumps with indexOf. */
const SHORT_STRING = 24;

/**
 * Where the string read from `from` ends in `chunk` (its closing quote); `chunk.length` when it
 * goes on in the next chunk, -1 when it does so in an open escape. `escaped` says the byte at
 * `from` is escaped. Most strings are a few bytes, shorter than an indexOf call costs, so the
 * first bytes are read one by one; a longer string is crossed by indexOf from quote to quote, a
 * quote being escaped when an odd run of backslashes stands before it.
 */
function stringEnd(chunk: Buffer, from: number, escaped: boolean): number {
  const short = Math.min(chunk.length, from + SHORT_STRING);
  let i = from;
  let open = escaped;
  for (; i < short; i++) {
    const byte = chunk[i] as number;
    if (open) open = false;
    else if (byte === BACKSLASH) open = true;
    else if (byte === QUOTE) return i;
  }
  if (i === chunk.length) return open ? -1 : i;
  // From `clean` on no byte is escaped by what came before it.
  let clean = open ? i + 1 : i;
  for (;;) {
    const quote = chunk.indexOf(QUOTE, clean);
    const end = quote < 0 ? chunk.length : quote;
    let backslashes = 0;
    while (end - backslashes - 1 >= clean && chunk[end - backslashes - 1] === BACKSLASH) backslashes++;
    if (quote < 0) return backslashes % 2 === 1 ? -1 : chunk.length;
    if (backslashes % 2 === 0) return quote;
    clean = quote + 1;
  }
}
