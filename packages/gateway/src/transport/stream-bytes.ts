const LF = 10;
const CR = 13;
const COLON = 58;
// Keep-alive chunks are a few bytes; a long chunk is counted whatever it holds.
const MAX_COMMENT_CHUNK = 1024;

/**
 * Whether a chunk that starts at a line start holds only comment lines (`: keep-alive`) and blank
 * lines, which the SSE parser does not accumulate into a pending event.
 *
 * @param chunk - Bytes of the stream that begin at a line start.
 */
export function isCommentOnly(chunk: Uint8Array): boolean {
  if (chunk.length === 0 || chunk.length > MAX_COMMENT_CHUNK) return false;
  let lineStart = true;
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk[i] as number;
    const newline = c === LF || c === CR;
    if (lineStart && !newline && c !== COLON) return false;
    lineStart = newline;
  }
  return true;
}

/**
 * Resolves a CR at the end of a chunk at once. The SSE parser cannot tell a lone CR line end from
 * the first half of a CR LF pair, so it holds a chunk-final CR until more bytes come, which on a
 * CR-only stream delays every event until the next one (or the next keep-alive). Rewriting that CR
 * as CR LF, and dropping an LF that then starts the next chunk, gives the parser the same lines
 * without the wait.
 */
export class TrailingCrResolver {
  #dropLeadingLf = false;

  /**
   * @param chunk - The next bytes, in stream order.
   * @returns The same bytes with a final CR completed (copied only in that case).
   */
  resolve(chunk: Uint8Array): Uint8Array {
    let bytes = chunk;
    if (this.#dropLeadingLf && bytes.length > 0) {
      this.#dropLeadingLf = false;
      if (bytes[0] === LF) bytes = bytes.subarray(1);
    }
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) {
      const completed = new Uint8Array(bytes.length + 1);
      completed.set(bytes);
      completed[bytes.length] = LF;
      this.#dropLeadingLf = true;
      return completed;
    }
    return bytes;
  }
}
