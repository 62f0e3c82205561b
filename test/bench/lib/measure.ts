import { performance } from 'node:perf_hooks';

/**
 * Runs `fn` repeatedly for about `ms` milliseconds (after a short warm-up) and returns the rate in
 * operations per second. `fn` may be async; calls are sequential.
 */
export async function opsPerSecond(fn: () => unknown, ms = 1000): Promise<number> {
  const warmEnd = performance.now() + Math.min(200, ms / 4);
  while (performance.now() < warmEnd) await fn();
  let n = 0;
  const start = performance.now();
  const end = start + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) await fn();
    n += 100;
  }
  return (n * 1000) / (performance.now() - start);
}

/** The p-th percentile (0..100) of `samples`. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

/** The median of `xs` (the upper one of an even count). */
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/**
 * The median of `xs` with a distribution-free confidence interval of it, from order statistics: the
 * interval between the j-th smallest and the j-th largest sample, j the largest rank for which fewer
 * than j samples fall below the true median with probability ≤ (1 − level)/2 (a binomial tail of
 * p = ½). It holds whatever the samples' distribution, which on a shared machine has long tails.
 * @param xs - the samples (at least 6 for a 95 % interval)
 * @param level - the confidence, 0.95 unless told
 * @returns the median and the interval's ends; NaN ends when there are too few samples for the level
 */
export function medianInterval(
  xs: readonly number[],
  level = 0.95,
): { median: number; low: number; high: number; level: number } {
  const sorted = [...xs].sort((a, b) => a - b);
  const n = sorted.length;
  const middle =
    n % 2 === 1 ? (sorted[(n - 1) / 2] as number) : ((sorted[n / 2 - 1] as number) + (sorted[n / 2] as number)) / 2;
  // P(B ≤ k) for B ~ Binomial(n, ½), summed term by term: C(n, i) / 2^n, built up multiplicatively.
  const tail = (1 - level) / 2;
  let term = 0.5 ** n;
  let cumulative = term;
  let j = 0;
  for (let k = 0; cumulative <= tail && k < n; k++) {
    j = k + 1; // the interval [x_(k+1), x_(n−k)] covers the median with probability ≥ 1 − 2·P(B ≤ k)
    term = (term * (n - k)) / (k + 1);
    cumulative += term;
  }
  if (j === 0) return { median: middle, low: Number.NaN, high: Number.NaN, level };
  return { median: middle, low: sorted[j - 1] as number, high: sorted[n - j] as number, level };
}
