/**
 * A text stream the test writes into, as a model's `textStream` would arrive: `push` a chunk, `end`
 * the stream. What the bot reads is exactly what the test pushed, when it pushed it.
 */
export class TextSource implements AsyncIterable<string> {
  private readonly chunks: string[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  /** @param chunk - the next text */
  push(chunk: string): void {
    this.chunks.push(chunk);
    this.wake?.();
  }

  /** Ends the stream. */
  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const next = this.chunks.shift();
      if (next !== undefined) yield next;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
