import type { Clock } from '@boardbot/core';

/**
 * The bot's clock, moved by the test: give it to the bot (`createTestPlatform({ clock })`) and
 * `advance(ms)` or `advanceTo(time)` moves the time and runs the timers that fall due, in order, each
 * at its own time. Schedules, their claims, conversation timeouts, cooldowns and role caches all read
 * it, so a test reaches 09:00 on a Monday without sleeping. Handler timeouts read it too: move it
 * while the bot is idle (`await platform.settle()`), or a running handler may time out.
 *
 * It has no runtime dependency: `@boardbot/testing/clock` loads it alone, for tests that need a clock
 * and not the harness.
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
   * Moves time forward by `ms` and runs every timer due by then (those the timers set, too), each at
   * its own time.
   * @param ms - how far, in milliseconds
   */
  advance(ms: number): void {
    const until = this.time + ms;
    this.runDue(until, true);
    this.time = until;
  }

  /**
   * Moves time forward to `time` (never back), running the timers due by then.
   * @param time - epoch milliseconds, a `Date` or an ISO string
   */
  advanceTo(time: number | Date | string): void {
    this.advance(Math.max(0, toTime(time) - this.time));
  }

  /**
   * Moves time forward by `ms` at once, and only then runs the timers that fell due, late, as a real
   * process does after a stall (a suspended machine, a blocked event loop): each sees the new time.
   * What the bot does after such a gap (a schedule runs the missed minute once, late, and skips the
   * others) is tested with it.
   * @param ms - how far, in milliseconds
   */
  jump(ms: number): void {
    this.time += Math.max(0, ms);
    this.runDue(this.time, false);
  }

  /**
   * Runs the timers due by `until`, earliest first (ties in the order they were set), including those
   * they set on the way.
   * @param onTime - each timer sees its own due time (`advance`), rather than the time already reached
   */
  private runDue(until: number, onTime: boolean): void {
    for (;;) {
      let due: { at: number; id: number; fn: () => void } | undefined;
      for (const t of this.timers) {
        if (t.at <= until && (due === undefined || t.at < due.at || (t.at === due.at && t.id < due.id))) due = t;
      }
      if (due === undefined) return;
      this.timers = this.timers.filter((t) => t !== due);
      if (onTime) this.time = due.at;
      due.fn();
    }
  }
}

function toTime(time: number | Date | string): number {
  return typeof time === 'number' ? time : typeof time === 'string' ? Date.parse(time) : time.getTime();
}
