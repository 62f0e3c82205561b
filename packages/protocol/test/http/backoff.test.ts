import { type BackoffStep, backoffDelay } from '@boardbot/protocol/http';
import { describe, expect, it } from 'vitest';

// The gateway's reconnect policy (its defaults) and the REST client's retry policy (its defaults).
const GATEWAY = { baseMs: 250, maxMs: 30_000, jitter: 0.2 };
const REST = { baseMs: 300, maxMs: 10_000, jitter: 0.5 };

const wait = (attempt: number, policy: Omit<BackoffStep, 'attempt' | 'random'>, random = 0) =>
  backoffDelay({ attempt, random, ...policy });

describe('backoffDelay', () => {
  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 50].map((n) => wait(n, GATEWAY))).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect([1, 2, 3, 4, 5, 6].map((n) => wait(n, REST))).toEqual([300, 600, 1200, 2400, 4800, 9600]);
    expect(wait(7, REST)).toBe(10_000);
  });

  it('takes at most `jitter` of the wait off at random, never adds', () => {
    expect(wait(1, GATEWAY, 0.999999)).toBe(200);
    expect(wait(1, GATEWAY, 0.5)).toBe(225);
    // The REST policy waits between half and all of the exponential delay.
    expect(wait(3, REST, 0.999999)).toBe(600);
    expect(wait(3, REST, 0.5)).toBe(900);
    expect(wait(3, { ...REST, jitter: 0 }, 0.999999)).toBe(1200);
  });

  it('waits at least the floor, within the cap', () => {
    expect(wait(1, { ...GATEWAY, floorMs: 5000 })).toBe(5000);
    expect(wait(1, { ...GATEWAY, floorMs: 3_600_000 })).toBe(30_000);
    expect(wait(8, { ...GATEWAY, floorMs: 1000 })).toBe(30_000);
    // A floor in the past (a negative Retry-After) changes nothing.
    expect(wait(2, { ...GATEWAY, floorMs: -5000 })).toBe(500);
  });

  it('caps a hostile base and stays a number for a zero base and any attempt', () => {
    expect(wait(1, { ...GATEWAY, baseMs: 99_999_999 })).toBe(30_000);
    expect(wait(1, { ...GATEWAY, baseMs: Number.POSITIVE_INFINITY })).toBe(30_000);
    expect(wait(5000, { ...GATEWAY, baseMs: 0 })).toBe(0);
    expect(wait(3, { ...GATEWAY, baseMs: 1 })).toBe(4);
  });
});
