/**
 * Sequence counters kept in memory: the next `seq` of each board and the next event id of each app.
 * Keeping them out of the tables spares every send two page writes (the board's and the app's rows)
 * in the WAL. Each counter is loaded once from the data itself (`max(seq)`, `max(id)`), so it is
 * right after a restart or a crash; values taken inside a transaction become the committed ones only
 * when it commits, and are forgotten if it (or the savepoint that took them) rolls back: no holes, no
 * reuse.
 */
export class Counters {
  private readonly committed = new Map<string, number>();
  private readonly pending = new Map<string, number>();

  /** @param load - Reads the current value of a counter from the data. */
  constructor(private readonly load: (key: string) => number) {}

  /** Takes the next value of `key` (inside a transaction). */
  next(key: string): number {
    const value = (this.pending.get(key) ?? this.current(key)) + 1;
    this.pending.set(key, value);
    return value;
  }

  /** The last committed value of `key`. */
  current(key: string): number {
    let value = this.committed.get(key);
    if (value === undefined) {
      value = this.load(key);
      this.committed.set(key, value);
    }
    return value;
  }

  /** Makes the values taken in the transaction that just committed the current ones. */
  commit(): void {
    for (const [k, v] of this.pending) this.committed.set(k, v);
    this.pending.clear();
  }

  /** Forgets the values taken in a transaction that rolled back. */
  rollback(): void {
    this.pending.clear();
  }

  /** The values taken so far in the open transaction (to undo a savepoint). */
  mark(): Map<string, number> {
    return new Map(this.pending);
  }

  /** Undoes the values taken since `mark` (a savepoint rolled back). */
  restore(mark: Map<string, number>): void {
    this.pending.clear();
    for (const [k, v] of mark) this.pending.set(k, v);
  }

  /** Forgets everything (the data was cleared). */
  clear(): void {
    this.committed.clear();
    this.pending.clear();
  }
}
