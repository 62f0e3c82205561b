/** A message a burst holds: released (its event done) once no run waits for it any more. */
export interface Releasable {
  release(): void;
}

/**
 * The messages one run of a burst is for, oldest first, at most `max` of them: past it, the oldest
 * but the first is released unread and counted in `over`, so the batch keeps its first message (the
 * run's idempotency keys derive from it) and its newest ones.
 */
export class BurstBatch<E extends Releasable> {
  /** The messages the run reads. */
  readonly entries: E[] = [];
  /** Messages of the burst released past the cap, unread. */
  over = 0;

  /** @param max - most messages the batch holds (at least 2) */
  constructor(private readonly max: number) {}

  /**
   * Adds the newest message.
   * @returns how many messages were released to stay within the cap
   */
  add(entry: E): number {
    this.entries.push(entry);
    return this.cap();
  }

  /**
   * Puts the messages of an earlier batch in front (a cancelled run's, `'latest'`).
   * @returns how many messages were released to stay within the cap
   */
  prepend(earlier: BurstBatch<E>): number {
    this.entries.unshift(...earlier.entries);
    this.over += earlier.over;
    return this.cap();
  }

  private cap(): number {
    const past = this.entries.length - this.max;
    if (past <= 0) return 0;
    for (const released of this.entries.splice(1, past)) released.release();
    this.over += past;
    return past;
  }
}
