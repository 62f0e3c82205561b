/** A clock whose timers fire only when the test advances time. */
export interface ManualClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Moves time on by `ms`, firing every timer that falls due on the way, in order. */
  advance(ms: number): void;
  /** Timers set and not yet fired or cleared. */
  readonly pending: number;
}

/** A manual clock starting at 0, so that a test decides exactly when time passes. */
export function manualClock(): ManualClock {
  let now = 0;
  let timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let nextId = 0;
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fn();
      }
      now = end;
    },
    get pending() {
      return timers.length;
    },
  };
}
