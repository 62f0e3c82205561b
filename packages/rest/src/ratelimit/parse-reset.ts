// CONTRACT (Tolerance): `X-RateLimit-Reset` is delta seconds, but epoch seconds when larger than 10^9
// and epoch milliseconds when larger than 10^12. The same reading applies to a numeric `Retry-After`.

/** Above this a reset value is read as epoch seconds. */
export const EPOCH_SECONDS_THRESHOLD = 1e9;
/** Above this a reset value is read as epoch milliseconds. */
export const EPOCH_MILLISECONDS_THRESHOLD = 1e12;

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * Reads a rate-limit time (`X-RateLimit-Reset`, or a numeric `Retry-After`) as a delay in
 * milliseconds from now. May be negative (a reset in the past); `undefined` when unreadable.
 *
 * Epoch values come from the server's clock, so when the answer's `Date` header is known the delay is
 * taken relative to it: a client clock an hour off then still waits the right time.
 * @param value - the header value
 * @param now - the client's clock, epoch ms
 * @param serverNow - lazily read server time (the `Date` header), epoch ms, if any
 */
export function parseResetDelay(
  value: string | undefined,
  now: number,
  serverNow?: () => number | undefined,
): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!NUMERIC.test(text)) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return undefined;
  if (n <= EPOCH_SECONDS_THRESHOLD) return n * 1000;
  const epochMs = n > EPOCH_MILLISECONDS_THRESHOLD ? n : n * 1000;
  return epochMs - (serverNow?.() ?? now);
}

/**
 * Reads `Retry-After` (RFC 9110: delay seconds or an HTTP date) as a delay in milliseconds, with the
 * contract's tolerance for epoch numbers. `undefined` when the value is garbage.
 * @param value - the header value
 * @param now - the client's clock, epoch ms
 * @param serverNow - lazily read server time (the `Date` header), epoch ms, if any
 */
export function parseRetryAfter(
  value: string | undefined,
  now: number,
  serverNow?: () => number | undefined,
): number | undefined {
  if (value === undefined) return undefined;
  const numeric = parseResetDelay(value, now, serverNow);
  if (numeric !== undefined) return numeric;
  // Only an IMF-fixdate style value is a date; `Date.parse` alone would accept odd strings like "1".
  if (!/[a-z]{3},? /i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at - (serverNow?.() ?? now);
}

/**
 * Reads the `Date` header as epoch milliseconds.
 * @param value - the header value
 */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * Clamps a delay to `[0, ceiling]`: a negative or garbage-derived wait becomes 0 and an absurd one
 * (a clock two days off) becomes the ceiling, which callers compare with `maxRateLimitWaitMs`.
 * @param delayMs - the delay read from a header
 * @param ceilingMs - the largest delay worth representing
 */
export function clampDelay(delayMs: number, ceilingMs: number): number {
  if (!(delayMs > 0)) return 0;
  return delayMs > ceilingMs ? ceilingMs : delayMs;
}
