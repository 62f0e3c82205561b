import { readRateLimitReset } from '@boardbot/protocol/http';
import type { RateLimitInfo } from './bucket-state.js';

/** Response headers as undici gives them: lower-case names. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/**
 * The first value of a header.
 * @param headers - the answer's headers
 * @param name - lower-case header name
 */
export function header(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Reads `X-RateLimit-Limit`, `-Remaining` and `-Reset` (CONTRACT "Limits", with the "Tolerance"
 * reading of the reset). `undefined` when any of them is missing or unreadable, or the limit is not
 * a positive number: such an answer teaches nothing about the window.
 * @param headers - the answer's headers
 * @param now - the client's clock (ms)
 */
export function readRateLimitHeaders(headers: ResponseHeaders, now: number): RateLimitInfo | undefined {
  const limit = Number(header(headers, 'x-ratelimit-limit'));
  const remaining = Number(header(headers, 'x-ratelimit-remaining'));
  if (!(limit >= 1) || !(remaining >= 0) || !Number.isFinite(limit)) return undefined;
  const resetDelayMs = readRateLimitReset(header(headers, 'x-ratelimit-reset'), now, header(headers, 'date'));
  if (resetDelayMs === undefined) return undefined;
  return { limit, remaining: Math.floor(remaining), resetDelayMs };
}
