import type { ReconnectOptions } from '../options.js';

/** What decides the wait before one reconnect attempt. */
export interface BackoffInput {
  /** Consecutive failed attempts, 1 for the first failure. */
  attempt: number;
  /** The server's last `retry:` value in milliseconds, if it sent one. */
  serverRetryMs: number | undefined;
  /** The failed answer's `Retry-After` in milliseconds, if it had one. */
  retryAfterMs: number | undefined;
  /** A number in [0, 1) for the jitter. */
  random: number;
}

/**
 * The wait before the next connection attempt: exponential from the server's `retry:` (or
 * `initialDelayMs` when it sent none), at least any `Retry-After`, never more than `maxDelayMs`, with
 * up to `jitter` of it taken off at random.
 *
 * @param input - The attempt, the server's hints, and a random number.
 * @param options - The reconnect options with their defaults applied.
 * @returns The delay in whole milliseconds.
 */
export function backoffDelay(input: BackoffInput, options: Required<ReconnectOptions>): number {
  // CONTRACT: "the stream starts with retry: 1000" and "clients reconnect with back-off": the server's
  // retry: sets the base, each further failure doubles it, and the cap bounds hostile values.
  const base = Math.max(1, input.serverRetryMs ?? options.initialDelayMs);
  const exponent = Math.min(Math.max(0, input.attempt - 1), 30);
  const exponential = Math.min(options.maxDelayMs, base * 2 ** exponent);
  const jittered = exponential * (1 - options.jitter * input.random);
  // Retry-After is the server's explicit floor for this attempt; only the cap overrides it.
  const floor = Math.min(options.maxDelayMs, input.retryAfterMs ?? 0);
  return Math.round(Math.max(jittered, floor));
}

/**
 * Reads a `Retry-After` header: delay-seconds or an HTTP date (RFC 9110 10.2.3).
 *
 * @param value - The header value, or null when absent.
 * @param nowMs - The current wall-clock time, for the date form.
 * @returns Milliseconds to wait, or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; without letters, Date.parse would read "-5" as a year.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
