import { TestClock } from '@boardbot/testing/clock';
import { describe, expect, it } from 'vitest';

describe('TestClock', () => {
  it('advance runs the timers due in order, each at its own time, with those they set on the way', () => {
    const clock = new TestClock(1_000);
    const seen: [string, number][] = [];
    clock.setTimeout(() => seen.push(['b', clock.now()]), 200);
    clock.setTimeout(() => {
      seen.push(['a', clock.now()]);
      clock.setTimeout(() => seen.push(['a+50', clock.now()]), 50);
    }, 100);
    clock.setTimeout(() => seen.push(['b2', clock.now()]), 200);
    clock.setTimeout(() => seen.push(['late', clock.now()]), 500);
    clock.advance(300);
    expect(seen).toEqual([
      ['a', 1_100],
      ['a+50', 1_150],
      ['b', 1_200],
      ['b2', 1_200],
    ]);
    expect(clock.now()).toBe(1_300);
    expect(clock.pending).toBe(1);
  });

  it('jump moves the time first and runs the timers that fell due late, each seeing the new time', () => {
    const clock = new TestClock(0);
    const seen: [string, number][] = [];
    clock.setTimeout(() => seen.push(['second', clock.now()]), 20);
    clock.setTimeout(() => seen.push(['first', clock.now()]), 10);
    clock.setTimeout(() => seen.push(['not yet', clock.now()]), 100);
    clock.jump(50);
    expect(seen).toEqual([
      ['first', 50],
      ['second', 50],
    ]);
    expect(clock.pending).toBe(1);
  });

  it('clearTimeout forgets a timer; advanceTo never moves back; a start may be a date or an ISO string', () => {
    const clock = new TestClock('2026-03-02T09:00:00Z');
    let ran = false;
    const handle = clock.setTimeout(() => {
      ran = true;
    }, 10);
    clock.clearTimeout(handle);
    clock.advance(10);
    expect(ran).toBe(false);
    expect(clock.pending).toBe(0);
    clock.advanceTo(new Date('2026-03-02T08:00:00Z'));
    expect(new Date(clock.now()).toISOString()).toBe('2026-03-02T09:00:00.010Z');
  });
});
