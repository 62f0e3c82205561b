import { BucketState, WAIT_FOR_ANSWER } from '@boardbot/rest';
import { describe, expect, it } from 'vitest';

const info = (limit: number, remaining: number, resetDelayMs: number) => ({ limit, remaining, resetDelayMs });

/** Takes up to `n` slots at `now`; returns the generations of the slots granted. */
function take(state: BucketState, now: number, n: number): number[] {
  const granted: number[] = [];
  for (let i = 0; i < n; i++) if (state.tryTake(now) === 0) granted.push(state.generation);
  return granted;
}

/** A state whose window (10 per 100 ms) is known at time 0, with nothing in flight. */
function known(limit = 10, remaining = limit - 1, resetDelayMs = 100): BucketState {
  const s = new BucketState();
  s.tryTake(0);
  s.settle(info(limit, remaining, resetDelayMs), 0, s.generation);
  return s;
}

describe('BucketState', () => {
  it('probes an unknown window with a single request', () => {
    const s = new BucketState();
    expect(s.tryTake(0)).toBe(0);
    expect(s.tryTake(0)).toBe(WAIT_FOR_ANSWER);
    expect(s.inFlight).toBe(1);
  });

  it('after the probe answers, lets exactly the remaining slots go until the reset', () => {
    const s = known(10, 9, 1000);
    expect(take(s, 10, 20)).toHaveLength(9);
    expect(s.tryTake(10)).toBe(1005 - 10); // reset at 0 + 1000 + 5 ms margin
  });

  it('counts requests still in flight against what an answer reports', () => {
    const s = known(10, 9, 1000);
    const [g] = take(s, 0, 5); // 5 in flight, 4 slots left
    // One answers: the server had 5 left when it saw it, and 4 others are still in flight.
    s.settle(info(10, 5, 990), 10, g as number);
    expect(s.remaining).toBe(1);
    expect(take(s, 10, 5)).toHaveLength(1);
  });

  it('never gives slots back on a late answer from the same window', () => {
    const s = known(10, 9, 1000);
    const [g] = take(s, 0, 9);
    s.settle(info(10, 8, 999), 5, g as number);
    expect(s.remaining).toBe(0);
  });

  it('starts each new window with one probe, and sizes it by the probe’s answer minus what is in flight', () => {
    const s = known(10, 9, 100);
    const old = take(s, 0, 9);
    expect(old).toHaveLength(9);
    // Window over, 9 still in flight: one probe only.
    expect(take(s, 200, 5)).toHaveLength(1);
    expect(s.tryTake(200)).toBe(WAIT_FOR_ANSWER);
    // The server saw 3 of the late ones in the new window before the probe: 6 left; 9 in flight.
    s.settle(info(10, 6, 100), 201, s.generation);
    expect(s.remaining).toBe(0);
    // The late ones answer (their window is gone: they teach nothing) and free no slot.
    for (const g of old) s.settle(info(10, 0, 1), 202, g);
    expect(s.remaining).toBe(0);
    expect(s.tryTake(202)).toBe(201 + 105 - 202);
  });

  it('ignores an answer to a request sent in an earlier window', () => {
    const s = known(10, 9, 100);
    const [old] = take(s, 0, 1);
    take(s, 200, 1); // the probe of the next window
    s.settle(info(10, 9, 100), 201, s.generation);
    const after = s.remaining;
    s.settle(info(10, 0, 1), 202, old as number);
    expect(s.remaining).toBe(after);
    expect(s.resetAt).toBe(306);
  });

  it('probes again when the probe fails without an answer', () => {
    const s = new BucketState();
    s.tryTake(0);
    s.settle(null, 0, s.generation);
    expect(s.tryTake(0)).toBe(0);
  });

  it('treats a server that sends no limits as unlimited, but keeps a limit it knows', () => {
    const open = new BucketState();
    open.tryTake(0);
    open.settle(undefined, 0, open.generation);
    expect(take(open, 0, 1000)).toHaveLength(1000);

    const s = known(2, 1, 1000);
    const [g] = take(s, 0, 1);
    s.settle(undefined, 0, g as number);
    expect(s.limit).toBe(2);
  });

  it('blocks everything until a 429 wait has passed, then probes', () => {
    const s = known(10, 5, 100);
    s.block(500);
    expect(s.tryTake(100)).toBe(400);
    expect(take(s, 500, 3)).toHaveLength(1);
  });
});
