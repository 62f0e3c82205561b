import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { it } from 'vitest';
import { FixedWindowLimiter } from '../../packages/emulator/src/ratelimit/fixed-window.js';
import { record } from './lib/record.js';

// 100,000 distinct interaction tokens, each answering once within one window: the worst case of the
// per-credential limiter. Baseline: a bare Map.set of the same keys (the least a limiter that
// remembers each credential can cost). The limiter before this change swept all its buckets for
// every new key past 10,000 live ones, O(n) each; it is kept below, as it was, for the comparison,
// and run on the first 30,000 keys only (the whole 100,000 takes minutes).

const KEYS = 100_000;
const OLD_KEYS = 30_000;
const WINDOW_MS = 1000;

/** The limiter as it was: one map, swept in full when a new key arrives past 10,000 buckets. */
class SweepingLimiter {
  private readonly buckets = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}
  take(key: string): boolean {
    const now = this.now();
    let b = this.buckets.get(key);
    if (!b || now - b.start >= this.windowMs || now < b.start) {
      if (!b && this.buckets.size >= 10_000) this.sweep(now);
      b = { start: now, count: 0 };
      this.buckets.set(key, b);
    }
    if (b.count >= this.limit) return false;
    b.count++;
    return true;
  }
  private sweep(now: number): void {
    for (const [k, b] of this.buckets) if (now - b.start >= this.windowMs) this.buckets.delete(k);
  }
}

const keys = Array.from(
  { length: KEYS },
  (_, i) => `interaction:${createHash('sha256').update(String(i)).digest('hex')}`,
);

/** Takes per second of `take` over `n` keys, all in one window (the clock stands still). */
function rate(take: (key: string) => unknown, n: number): number {
  const start = performance.now();
  for (let i = 0; i < n; i++) take(keys[i] as string);
  return (n * 1000) / (performance.now() - start);
}

it('takes 100,000 distinct interaction tokens in one window in O(1) each, within two windows of memory', () => {
  let clock = 1_000_000;
  const now = () => clock;
  const map = new Map<string, number>();
  const baseline = rate((k) => map.set(k, 1), KEYS);
  const limiter = new FixedWindowLimiter(50, WINDOW_MS, now);
  const current = rate((k) => limiter.take(k), KEYS);
  const old = new SweepingLimiter(50, WINDOW_MS, now);
  const before = rate((k) => old.take(k), OLD_KEYS);
  // Memory: the next window's 100,000 new tokens leave the buckets of two windows at most, and the
  // window after drops the first.
  clock += WINDOW_MS;
  for (const k of keys) limiter.take(`next:${k}`);
  const twoWindows = limiter.size;
  clock += WINDOW_MS;
  limiter.take('one more');
  const afterTurn = limiter.size;
  if (twoWindows > 2 * KEYS || afterTurn > KEYS + 1)
    throw new Error(`buckets not bounded: ${twoWindows}, ${afterTurn}`);
  const bench = 'emulator: rate limit, 100,000 distinct tokens in one window';
  record(
    { bench, subject: 'Map.set of each key (baseline)', value: baseline, unit: 'takes/s', ratio: 1 },
    {
      bench,
      subject: 'FixedWindowLimiter (two generations)',
      value: current,
      unit: 'takes/s',
      ratio: current / baseline,
      note: `buckets held: ${twoWindows} after two windows, ${afterTurn} after the next turn`,
    },
    {
      bench,
      subject: 'previous limiter (sweep per new key)',
      value: before,
      unit: 'takes/s',
      ratio: before / baseline,
      note: `first ${OLD_KEYS.toLocaleString('en')} keys only: O(n) per key past 10,000`,
    },
  );
}, 300_000);
