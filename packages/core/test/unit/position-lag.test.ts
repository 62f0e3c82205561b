import { PositionLag } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

describe('position lag', () => {
  it('measures the events and the seconds the resume point trails what was received', () => {
    const lag = new PositionLag();
    lag.received('11', 1_000, '10');
    lag.received('12', 3_000, '10');
    lag.received('13', 4_000, '10');
    expect(lag.events('10')).toBe(3);
    expect(lag.seconds('10', 6_000)).toBe(5);
    // Event 11 finished: the oldest event past the resume point is now 12.
    expect(lag.events('11')).toBe(2);
    expect(lag.seconds('11', 6_000)).toBe(3);
    expect(lag.events('13')).toBe(0);
    expect(lag.seconds('13', 6_000)).toBe(0);
  });
});
