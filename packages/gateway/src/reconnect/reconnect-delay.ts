import { backoffDelay } from '@boardbot/protocol/http';
import type { ReconnectOptions } from '../options.js';

/** What decides the wait before one reconnect attempt. */
export interface ReconnectInput {
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
export function reconnectDelay(input: ReconnectInput, options: Required<ReconnectOptions>): number {
  // CONTRACT: "the stream starts with retry: 1000" and "clients reconnect with back-off": the server's
  // retry: sets the base (a `retry: 0` still grows), each further failure doubles it, the cap bounds
  // hostile values, and Retry-After is the server's explicit floor for this attempt.
  return backoffDelay({
    attempt: input.attempt,
    baseMs: Math.max(1, input.serverRetryMs ?? options.initialDelayMs),
    maxMs: options.maxDelayMs,
    jitter: options.jitter,
    random: input.random,
    floorMs: input.retryAfterMs,
  });
}
