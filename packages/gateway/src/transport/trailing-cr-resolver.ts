const LF = 10;
const CR = 13;

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
