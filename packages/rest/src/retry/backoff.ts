/**
 * Exponential back-off with "equal jitter": attempt n waits between half and all of
 * `min(maxMs, baseMs * 2^(n-1))`, so retries spread out yet still grow.
 * @param attempt - the attempt that just failed (1 for the first)
 * @param baseMs - delay of the first retry before jitter
 * @param maxMs - ceiling of the delay
 * @param random - random source in [0, 1)
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** Statuses worth another attempt: the server or a proxy failed, the request itself was fine. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);
