import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../src/ratelimit/fixed-window.js';
import { FakeClock } from './helpers/harness.js';

describe('FixedWindowLimiter', () => {
  it('keeps each credential’s own window, starting at its first request, across generation turns', () => {
    const clock = new FakeClock(0);
    const limiter = new FixedWindowLimiter(2, 1000, clock.now);
    expect(limiter.take('a')).toMatchObject({ allowed: true, remaining: 1, resetMs: 1000 });
    clock.advance(900);
    expect(limiter.take('b')).toMatchObject({ allowed: true, remaining: 1, resetMs: 1000 });
    expect(limiter.take('a')).toMatchObject({ allowed: true, remaining: 0, resetMs: 100 });
    expect(limiter.take('a')).toMatchObject({ allowed: false, remaining: 0 });
    clock.advance(200);
    // a's window (from 0) is over; b's (from 900) is not, though the generations turned at 1000.
    expect(limiter.take('a')).toMatchObject({ allowed: true, remaining: 1, resetMs: 1000 });
    expect(limiter.take('b')).toMatchObject({ allowed: true, remaining: 0, resetMs: 800 });
    expect(limiter.take('b')).toMatchObject({ allowed: false });
  });

  it('holds the credentials of the last two windows at most', () => {
    const clock = new FakeClock(0);
    const limiter = new FixedWindowLimiter(50, 1000, clock.now);
    for (let w = 0; w < 5; w++) {
      for (let i = 0; i < 1000; i++) limiter.take(`w${w}-${i}`);
      expect(limiter.size).toBeLessThanOrEqual(2000);
      clock.advance(1000);
    }
    clock.advance(5000);
    limiter.take('late');
    expect(limiter.size).toBe(1);
  });

  it('peeks at a window without counting, and shows a fresh one for an unknown or expired key', () => {
    const clock = new FakeClock(0);
    const limiter = new FixedWindowLimiter(2, 1000, clock.now);
    expect(limiter.peek('a')).toEqual({ allowed: true, limit: 2, remaining: 2, resetMs: 1000 });
    limiter.take('a');
    clock.advance(300);
    expect(limiter.peek('a')).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: 700 });
    expect(limiter.peek('a')).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: 700 });
    limiter.take('a');
    expect(limiter.peek('a')).toMatchObject({ allowed: false, remaining: 0 });
    expect(limiter.size).toBe(1);
    clock.advance(700);
    expect(limiter.peek('a')).toEqual({ allowed: true, limit: 2, remaining: 2, resetMs: 1000 });
  });
});
