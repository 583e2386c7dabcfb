const NEWLINE = 0x0a;

/**
 * Splits a byte stream into its newline-terminated lines, looking at each byte once however the
 * stream is chunked: a watch event of many megabytes arriving in small chunks costs its size, not
 * its size times its number of chunks. Lines stay bytes until whole, so a UTF-8 character split
 * between two chunks is decoded whole (a newline byte is never part of a multi-byte character).
 *
 * @example
 * ```ts
 * const lines = new LineSplitter();
 * for await (const chunk of res) for (const line of lines.push(chunk)) handle(line.toString('utf8'));
 * ```
 */
export class LineSplitter {
  /** The bytes after the last newline, as the chunks they came in. */
  #partial: Buffer[] = [];
  #scanned = 0;

  /** Bytes searched for a newline so far: the bytes pushed, whatever their chunking. */
  get scannedBytes(): number {
    return this.#scanned;
  }

  /** The lines `chunk` completes, without their newline, in order. */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline >= 0; newline = chunk.indexOf(NEWLINE, start)) {
      this.#partial.push(chunk.subarray(start, newline));
      lines.push(this.#partial.length === 1 ? (this.#partial[0] as Buffer) : Buffer.concat(this.#partial));
      this.#partial = [];
      start = newline + 1;
    }
    if (start < chunk.length) this.#partial.push(chunk.subarray(start));
    this.#scanned += chunk.length;
    return lines;
  }
}
