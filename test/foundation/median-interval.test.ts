import { describe, expect, it } from 'vitest';
import { medianInterval } from '../bench/lib/measure.js';

// The interval the tracing bench reports as its spread (issue 35): the ranks are the published
// distribution-free ones for a 95 % interval of the median (e.g. Conover's table: n = 9 → 2nd and
// 8th, n = 20 → 6th and 15th, n = 100 → 40th and 61st).
describe('medianInterval', () => {
  const ranks = (n: number) => Array.from({ length: n }, (_, i) => n - i); // shuffled order: sorts first

  it('takes the order statistics of the binomial tail as its ends', () => {
    expect(medianInterval(ranks(9))).toEqual({ median: 5, low: 2, high: 8, level: 0.95 });
    expect(medianInterval(ranks(20))).toEqual({ median: 10.5, low: 6, high: 15, level: 0.95 });
    expect(medianInterval(ranks(100))).toEqual({ median: 50.5, low: 40, high: 61, level: 0.95 });
    expect(medianInterval(ranks(120))).toMatchObject({ low: 49, high: 72 }); // the bench's 120 rounds;
  });

  it('says when there are too few samples for the level', () => {
    const five = medianInterval(ranks(5));
    expect(five.median).toBe(3);
    expect(five.low).toBeNaN();
    expect(five.high).toBeNaN();
    expect(medianInterval(ranks(6)).low).toBe(1);
  });
});
