const LF = 10;
const CR = 13;
const RETRY = Buffer.from('retry:', 'latin1');
// A `retry:` line longer than this is not a number anyone means; it is ignored like `retry: abc`.
const MAX_RETRY_LINE = 64;
const EMPTY = new Uint8Array(0);

function firstLineEnd(buf: Buffer, from: number, hasCr: boolean): number {
  const lf = buf.indexOf(LF, from);
  if (!hasCr) return lf;
  const cr = buf.indexOf(CR, from);
  if (lf === -1) return cr;
  if (cr === -1) return lf;
  return Math.min(lf, cr);
}

function retryValue(line: Uint8Array): number | undefined {
  if (line.length <= RETRY.length) return undefined;
  for (let i = 0; i < RETRY.length; i++) if (line[i] !== RETRY[i]) return undefined;
  // WHATWG: one optional space after the colon, then only ASCII digits, else the field is ignored.
  const start = line[RETRY.length] === 0x20 ? RETRY.length + 1 : RETRY.length;
  if (start >= line.length) return undefined;
  let value = 0;
  for (let i = start; i < line.length; i++) {
    const c = line[i] as number;
    if (c < 0x30 || c > 0x39) return undefined;
    value = value * 10 + (c - 0x30);
  }
  return value;
}

/**
 * Finds `retry:` fields in the raw bytes of an event stream. The `eventsource` package applies
 * `retry:` to its own reconnect timer, which the client does not use (it owns every reconnect), so
 * the client reads the field itself. Only native byte searches run on the hot path; lines split
 * across chunks (even byte by byte) are joined through a small tail.
 */
export class RetryFieldScanner {
  // Bytes of the current unfinished line while it may still be a `retry:` line: EMPTY at a line
  // start, null once the line is too long to matter.
  #tail: Uint8Array | null = EMPTY;

  /**
   * Scans one chunk of the stream.
   *
   * @param chunk - The next bytes, in stream order.
   * @returns The last valid `retry:` value (milliseconds) completed in this chunk, if any.
   */
  scan(chunk: Uint8Array): number | undefined {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Most streams never hold a CR: one search for it spares the CR searches below.
    const hasCr = buf.indexOf(CR) !== -1;
    const firstEnd = firstLineEnd(buf, 0, hasCr);
    let found: number | undefined;
    if (firstEnd === -1) {
      if (this.#tail !== null) this.#tail = this.#extendTail(this.#tail, buf);
      return undefined;
    }
    if (this.#tail !== null) {
      const line =
        this.#tail.length === 0 ? buf.subarray(0, firstEnd) : Buffer.concat([this.#tail, buf.subarray(0, firstEnd)]);
      found = retryValue(line) ?? found;
    }
    let at = buf.indexOf(RETRY, firstEnd + 1);
    while (at !== -1) {
      const before = buf[at - 1];
      if (before === LF || before === CR) {
        const end = firstLineEnd(buf, at, hasCr);
        if (end === -1) break; // the unfinished last line becomes the tail below
        found = retryValue(buf.subarray(at, end)) ?? found;
      }
      at = buf.indexOf(RETRY, at + RETRY.length);
    }
    const lastEnd = hasCr ? Math.max(buf.lastIndexOf(LF), buf.lastIndexOf(CR)) : buf.lastIndexOf(LF);
    const trailing = buf.length - lastEnd - 1;
    this.#tail =
      trailing === 0 ? EMPTY : trailing <= MAX_RETRY_LINE ? Uint8Array.from(buf.subarray(lastEnd + 1)) : null;
    return found;
  }

  #extendTail(tail: Uint8Array, buf: Buffer): Uint8Array | null {
    if (tail.length + buf.length > MAX_RETRY_LINE) return null;
    return Buffer.concat([tail, buf]);
  }
}
