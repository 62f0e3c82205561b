import type { Clock } from '../kernel/clock.js';
import { Fifo } from '../kernel/fifo.js';

/** A deadline being watched; {@link Deadlines.end} it when its run settles first. */
export interface Watch {
  readonly at: number;
  /** Dropped when the watch ends, so an ended watch waiting in the queue holds no run alive. */
  expire: (() => void) | undefined;
}

/**
 * The deadlines of the runner's runs on one timer. A timer per run (a `Timeout` made, linked and
 * unlinked per event) was a twentieth of an event's dispatch CPU on Node 26; runs mostly start and
 * end in the order of their deadlines (one `handlerTimeoutMs` for all), so a queue sorted by
 * deadline, its ended heads dropped as it goes, needs one timer for the earliest live deadline.
 * Each deadline still expires exactly when it passes, on the given clock (fake clocks included).
 */
export class Deadlines {
  // Sorted by `at`; ended watches stay until they reach the head.
  private readonly queue = new Fifo<Watch>();
  private live = 0;
  private timer: unknown = undefined;
  private armedAt = Number.POSITIVE_INFINITY;

  /** @param clock - the runtime's clock */
  constructor(private readonly clock: Clock) {}

  /**
   * Calls `expire` once `at` passes, unless the watch ended first.
   * @param at - the deadline, in the clock's milliseconds
   * @param expire - what passing it does
   */
  watch(at: number, expire: () => void): Watch {
    const watch: Watch = { at, expire };
    this.dropEnded();
    // Almost always appended: a later run has a later deadline. An extended deadline moves in.
    this.queue.insert(watch, (queued) => queued.at > at);
    if (this.live++ === 0) this.hold(true);
    if (at < this.armedAt) this.arm(at);
    return watch;
  }

  /**
   * Forgets a watch whose run settled before its deadline. With none left the timer stays armed
   * but no longer holds the process open (a stopped bot keeps nothing alive), so a bot handling one
   * event at a time does not make a timer per event.
   * @param watch - what {@link Deadlines.watch} returned
   */
  end(watch: Watch): void {
    if (watch.expire === undefined) return;
    watch.expire = undefined;
    if (--this.live === 0) this.hold(false);
  }

  /** Refs or unrefs the armed timer; a clock whose timers cannot be unref'd has it cleared instead. */
  private hold(open: boolean): void {
    const timer = this.timer as { ref?: () => void; unref?: () => void } | undefined;
    if (timer === undefined) return;
    if (typeof timer.unref === 'function') {
      if (open) timer.ref?.();
      else timer.unref();
    } else if (!open) {
      this.clock.clearTimeout(timer);
      this.timer = undefined;
      this.armedAt = Number.POSITIVE_INFINITY;
    }
  }

  private arm(at: number): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = this.clock.setTimeout(() => this.fire(), Math.max(0, at - this.clock.now()));
    if (this.live === 0) this.hold(false);
  }

  private fire(): void {
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    for (;;) {
      this.dropEnded();
      const next = this.queue.peek();
      if (next === undefined) return;
      if (next.at > now) {
        // `expire` may have watched a later deadline (and armed for it) meanwhile.
        if (next.at < this.armedAt) this.arm(next.at);
        return;
      }
      const { expire } = next;
      this.end(next);
      expire?.();
    }
  }

  private dropEnded(): void {
    const { queue } = this;
    while (queue.peek()?.expire === undefined && queue.size > 0) queue.shift();
    // The ended watches behind a long live one, once they outnumber the live ones.
    if (queue.size > 2 * this.live + 1024) queue.retain((watch) => watch.expire !== undefined);
  }
}
