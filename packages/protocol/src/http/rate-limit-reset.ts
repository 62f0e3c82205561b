import { parseHttpDate } from './http-date.js';

// CONTRACT (Tolerance): `X-RateLimit-Reset` is delta seconds, but epoch seconds when larger than 10^9
// and epoch milliseconds when larger than 10^12. A numeric `Retry-After` is read the same way.

/** Above this a numeric reset is read as epoch seconds. */
export const EPOCH_SECONDS_THRESHOLD = 1e9;
/** Above this a numeric reset is read as epoch milliseconds. */
export const EPOCH_MILLISECONDS_THRESHOLD = 1e12;

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * Reads `X-RateLimit-Reset` (or a numeric `Retry-After`) as a delay in milliseconds from now, with the
 * contract's tolerance for epoch values. Epoch values come from the server's clock, so they are taken
 * relative to the answer's `Date` header when it has one: a client clock an hour off still waits the
 * right time.
 *
 * @param value - The header value; `null` or `undefined` when the answer had none.
 * @param now - The client's wall clock, epoch milliseconds.
 * @param date - The answer's `Date` header, if any (read only for an epoch value).
 * @returns Milliseconds to wait, negative for a reset in the past; `undefined` when absent or unreadable.
 */
export function readRateLimitReset(
  value: string | null | undefined,
  now: number,
  date?: string | null | undefined,
): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (!NUMERIC.test(text)) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return undefined;
  if (n <= EPOCH_SECONDS_THRESHOLD) return n * 1000;
  const epochMs = n > EPOCH_MILLISECONDS_THRESHOLD ? n : n * 1000;
  return epochMs - (parseHttpDate(date) ?? now);
}
