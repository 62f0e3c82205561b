import { readRetryAfter } from '@boardbot/protocol/http';
import type { ResponseHeaders } from './read-headers.js';
import { header, readRateLimitHeaders } from './read-headers.js';

/** Wait after a 429 that carries no usable hint: one window of the contract's default limit. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

/**
 * How long a 429 says to wait, in whole milliseconds, never negative. CONTRACT: `error.retry_after`
 * is the precise decimal and wins; then `Retry-After` (seconds or an HTTP date, read against the
 * answer's `Date`); then `X-RateLimit-Reset`; then {@link DEFAULT_RETRY_AFTER_MS}. Garbage falls
 * through to the next source; a negative value means 0.
 * @param headers - the 429's headers
 * @param bodySeconds - `error.retry_after`, if the body had one
 * @param now - the client's clock (ms)
 */
export function retryAfterDelay(headers: ResponseHeaders, bodySeconds: number | undefined, now: number): number {
  let ms = bodySeconds !== undefined && bodySeconds >= 0 ? bodySeconds * 1000 : undefined;
  ms ??= readRetryAfter(header(headers, 'retry-after'), now, header(headers, 'date'));
  ms ??= readRateLimitHeaders(headers, now)?.resetDelayMs;
  if (ms === undefined || Number.isNaN(ms)) ms = DEFAULT_RETRY_AFTER_MS;
  return ms > 0 ? Math.ceil(ms) : 0;
}
