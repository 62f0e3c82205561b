/**
 * A clock (`now`, `setTimeout`, `clearTimeout`, the shape core's and the gateway's clock ports take)
 * whose time moves only when the test says so: `advance(ms)` moves it and runs the timers that fall
 * due, in order, each at its own time. Timeouts, batching windows and watchdogs become exact, without
 * sleeping.
 */
export class ManualClock {
  private time: number;
  private timers: { at: number; id: number; fn: () => void }[] = [];
  private nextId = 1;

  /** @param start - the time it shows first, in milliseconds */
  constructor(start = 0) {
    this.time = start;
  }

  /** The clock's time, in milliseconds. */
  now(): number {
    return this.time;
  }

  /** Runs `fn` once the clock has been advanced by `ms`; returns the timer's handle. */
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, id, fn });
    return id;
  }

  /** Forgets the timer of `handle`. */
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms` and runs every timer due by then (those the timers set, too). */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
    }
    this.time = until;
  }

  /**
   * Moves time forward by `ms` at once, and only then runs the timers that fell due, late, as a real
   * process does after a stall (a suspended machine, a blocked event loop): each sees the new time.
   */
  jump(ms: number): void {
    this.time += ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= this.time).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) return;
      this.timers = this.timers.filter((t) => t !== due);
      due.fn();
    }
  }
}
