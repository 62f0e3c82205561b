/** One wait of an exponential back-off: which attempt, the policy, and the random draw. */
export interface BackoffStep {
  /** Consecutive failures so far, 1 for the first. */
  attempt: number;
  /** The wait after the first failure, before jitter, in milliseconds; each further failure doubles it. */
  baseMs: number;
  /** Cap of every wait, the floor included, in milliseconds. */
  maxMs: number;
  /**
   * Share of the wait taken off at random, in [0, 1]: the wait lies between `(1 - jitter)` and 1 times
   * the exponential delay.
   */
  jitter: number;
  /** A number in [0, 1) that picks the jitter (inject it to make the wait predictable). */
  random: number;
  /**
   * A wait the server asked for (`Retry-After`): the result is at least this, unless the cap is lower.
   * @defaultValue none
   */
  floorMs?: number | undefined;
}

// 2^30 times any sensible base is past every cap; a bounded exponent also keeps a zero base from
// meeting an infinite power (0 * Infinity is NaN).
const MAX_EXPONENT = 30;

/**
 * The wait before the next attempt: `min(maxMs, baseMs * 2^(attempt - 1))`, less up to `jitter` of it
 * at random so that many clients do not retry in lock-step, and never less than `floorMs` within the
 * cap. The REST client's retries (`jitter` 0.5) and the gateway's reconnects (the server's `retry:` as
 * the base, `Retry-After` as the floor) are both this function with their own policy.
 *
 * @param step - The attempt, the policy and the random draw.
 * @returns The wait in whole milliseconds.
 *
 * @example
 * backoffDelay({ attempt: 3, baseMs: 250, maxMs: 30_000, jitter: 0.2, random: Math.random() }); // 800..1000
 */
export function backoffDelay(step: BackoffStep): number {
  const exponent = Math.min(Math.max(0, step.attempt - 1), MAX_EXPONENT);
  const exponential = Math.min(step.maxMs, step.baseMs * 2 ** exponent);
  const jittered = exponential * (1 - step.jitter * step.random);
  const floor = Math.min(step.maxMs, step.floorMs ?? 0);
  return Math.round(Math.max(jittered, floor));
}
