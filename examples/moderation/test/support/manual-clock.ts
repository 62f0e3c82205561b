import type { Clock } from '@boardbot/core';

/**
 * A clock whose time moves only when the test says so: `advance(ms)` moves it and runs the timers
 * that fall due, in order. Given to the bot (runtime and moderator alike) it makes flood windows,
 * cooldowns and delayed deletions exact, without sleeping.
 */
export class ManualClock implements Clock {
  private time = Date.now();
  private timers: { at: number; id: number; fn: () => void }[] = [];
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, id, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms` and runs every timer due by then. */
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
}
