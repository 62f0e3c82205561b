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
