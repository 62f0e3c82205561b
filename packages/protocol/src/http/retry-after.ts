import { parseHttpDate } from './http-date.js';
import { readRateLimitReset } from './rate-limit-reset.js';

/**
 * Reads `Retry-After` (RFC 9110 10.2.3: delay-seconds or an HTTP date) as a delay in milliseconds,
 * with the contract's tolerance for decimal and epoch numbers (CONTRACT "Tolerance"). A date is taken
 * relative to the answer's `Date` header when it has one, so a skewed client clock does not matter.
 *
 * @param value - The header value; `null` or `undefined` when the answer had none.
 * @param now - The client's wall clock, epoch milliseconds.
 * @param date - The answer's `Date` header, if any.
 * @returns Milliseconds to wait, negative for a time in the past (callers decide what that means);
 *   `undefined` when absent or unreadable.
 *
 * @example
 * readRetryAfter('2', Date.now()); // 2000
 * readRetryAfter(res.headers.get('retry-after'), Date.now(), res.headers.get('date'));
 */
export function readRetryAfter(
  value: string | null | undefined,
  now: number,
  date?: string | null | undefined,
): number | undefined {
  if (value == null) return undefined;
  const numeric = readRateLimitReset(value, now, date);
  if (numeric !== undefined) return numeric;
  const at = parseHttpDate(value);
  return at === undefined ? undefined : at - (parseHttpDate(date) ?? now);
}
