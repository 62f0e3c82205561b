/**
 * A status line a streamed answer shows while it waits for its text ("reading the board…"): set it
 * as work starts (an agent sets one per tool call); the answer shows it in its next throttled edit,
 * after the text so far, and drops it once new text arrives and in its final edit. Give it as
 * `ctx.stream(source, { status })`.
 */
export class StreamStatus {
  private current: string | undefined;
  private readonly watchers = new Set<() => void>();

  /** The line shown now, if any. */
  get line(): string | undefined {
    return this.current;
  }

  /**
   * Shows `line` (replacing the one shown), or none.
   * @param line - the status, or undefined to clear it
   */
  set(line: string | undefined): void {
    if (line === this.current) return;
    this.current = line;
    for (const watcher of this.watchers) watcher();
  }

  /**
   * Calls `watcher` on each change, until the returned function is called (the stream's end).
   * @param watcher - told of a change
   */
  watch(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
}
