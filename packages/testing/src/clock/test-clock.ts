import type { Clock } from '@boardbot/core';

/**
 * The bot's clock, moved by the test: give it to the bot (`createTestPlatform({ clock })`) and
 * `advance(ms)` or `advanceTo(time)` moves the time and runs the timers that fall due, in order, each
 * at its own time. Schedules, their claims, conversation timeouts, cooldowns and role caches all read
 * it, so a test reaches 09:00 on a Monday without sleeping. Handler timeouts read it too: move it
 * while the bot is idle (`await platform.settle()`), or a running handler may time out.
 */
export class TestClock implements Clock {
  private time: number;
  private timers: { at: number; id: number; fn: () => void }[] = [];
  private nextId = 1;

  /** @param start - the time it shows first: epoch milliseconds, a `Date` or an ISO string @defaultValue now */
  constructor(start: number | Date | string = Date.now()) {
    this.time = toTime(start);
  }

  /** The clock's time, in milliseconds since the epoch. */
  now(): number {
    return this.time;
  }

  /** Runs `fn` once the clock has been moved by `ms`; returns the timer's handle. */
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + Math.max(0, ms), id, fn });
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

  /**
   * Moves time forward by `ms` and runs every timer due by then (those the timers set, too).
   * @param ms - how far, in milliseconds
   */
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
   * Moves time forward to `time` (never back), running the timers due by then.
   * @param time - epoch milliseconds, a `Date` or an ISO string
   */
  advanceTo(time: number | Date | string): void {
    this.advance(Math.max(0, toTime(time) - this.time));
  }
}

function toTime(time: number | Date | string): number {
  return typeof time === 'number' ? time : typeof time === 'string' ? Date.parse(time) : time.getTime();
}
