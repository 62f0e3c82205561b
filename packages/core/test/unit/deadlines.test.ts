import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/kernel/clock.js';
import type { Fifo } from '../../src/kernel/fifo.js';
import { Deadlines } from '../../src/policies/deadlines.js';

/** A clock moved by hand: its timers fire when `advance` passes them, in order. */
function manualClock() {
  let now = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      timers.set(++nextId, { at: now + ms, fn });
      return nextId;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
  };
  const advance = (ms: number): void => {
    const until = now + ms;
    for (;;) {
      const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = until;
  };
  return { clock, advance, pending: () => timers.size };
}

describe('Deadlines', () => {
  it('expires each deadline when it passes, in order, on one timer', () => {
    const { clock, advance, pending } = manualClock();
    const deadlines = new Deadlines(clock);
    const expired: string[] = [];
    deadlines.watch(100, () => expired.push('a'));
    advance(30);
    deadlines.watch(130, () => expired.push('b'));
    deadlines.watch(130, () => expired.push('c'));
    expect(pending()).toBe(1);
    advance(69);
    expect(expired).toEqual([]);
    advance(1);
    expect(expired).toEqual(['a']);
    advance(29);
    expect(expired).toEqual(['a']);
    advance(1);
    expect(expired).toEqual(['a', 'b', 'c']);
    expect(pending()).toBe(0);
  });

  it('never expires a watch that ended, and keeps no timer once none is live', () => {
    const { clock, advance, pending } = manualClock();
    const deadlines = new Deadlines(clock);
    const expired: string[] = [];
    const a = deadlines.watch(100, () => expired.push('a'));
    const b = deadlines.watch(200, () => expired.push('b'));
    deadlines.end(a);
    advance(150);
    expect(expired).toEqual([]);
    deadlines.end(b);
    expect(pending()).toBe(0);
    advance(100);
    expect(expired).toEqual([]);
  });

  it("leaves a real timer armed but unref'd while nothing is live, and refs it again for the next run", () => {
    const handles: NodeJS.Timeout[] = [];
    const clock: Clock = {
      now: () => Date.now(),
      setTimeout: (fn, ms) => {
        const handle = setTimeout(fn, ms);
        handles.push(handle);
        return handle;
      },
      clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    };
    const deadlines = new Deadlines(clock);
    const first = deadlines.watch(Date.now() + 60_000, () => {});
    expect(handles.map((h) => h.hasRef())).toEqual([true]);
    deadlines.end(first);
    expect(handles.map((h) => h.hasRef())).toEqual([false]);
    const second = deadlines.watch(Date.now() + 60_000, () => {});
    // The armed timer serves the later deadline too: no second timer, held open again.
    expect(handles.map((h) => h.hasRef())).toEqual([true]);
    deadlines.end(second);
    clearTimeout(handles[0]);
  });

  it('moves an earlier deadline in front and arms for it', () => {
    const { clock, advance } = manualClock();
    const deadlines = new Deadlines(clock);
    const expired: string[] = [];
    deadlines.watch(500, () => expired.push('late'));
    deadlines.watch(50, () => expired.push('early'));
    advance(50);
    expect(expired).toEqual(['early']);
    advance(450);
    expect(expired).toEqual(['early', 'late']);
  });

  it('lets an expiring watch ask for a later deadline, which then expires', () => {
    const { clock, advance } = manualClock();
    const deadlines = new Deadlines(clock);
    const expired: number[] = [];
    let extended = false;
    const expire = (): void => {
      expired.push(clock.now());
      if (!extended) {
        extended = true;
        deadlines.watch(clock.now() + 300, expire);
      }
    };
    deadlines.watch(100, expire);
    deadlines.watch(200, () => expired.push(-clock.now()));
    advance(1000);
    expect(expired).toEqual([100, -200, 400]);
  });

  it('holds ended watches behind a long live one only up to a bound', () => {
    const { clock } = manualClock();
    const deadlines = new Deadlines(clock);
    deadlines.watch(1_000_000, () => {});
    for (let i = 0; i < 50_000; i++) deadlines.end(deadlines.watch(1_000_001 + i, () => {}));
    const { queue } = deadlines as unknown as { queue: Fifo<unknown> };
    expect(queue.size).toBeLessThan(2_100);
  });
});
