/** The rate-limit headers of one answer, read. */
export interface RateLimitInfo {
  /** `X-RateLimit-Limit`: requests per window. */
  limit: number;
  /** `X-RateLimit-Remaining`: requests left in the window when the server answered. */
  remaining: number;
  /** `X-RateLimit-Reset`, as a delay in milliseconds from when the answer arrived. */
  resetDelayMs: number;
}

/** Wait for an answer (not for a time): the limit is unknown and a probe is in flight. */
export const WAIT_FOR_ANSWER = Number.POSITIVE_INFINITY;

// The server rounds the reset to 3 decimals; a few milliseconds of margin keep rounding from making the
// client roll over a hair before the server does.
const RESET_MARGIN_MS = 5;
// A window length to assume until answers show the real one.
const DEFAULT_WINDOW_MS = 1000;

/**
 * The client's view of one credential's rate-limit window, conservative by construction: it reserves
 * a slot before a request leaves and counts every request still in flight against the newest window,
 * so a burst never sends more than the server will accept.
 *
 * Why this never overshoots: a reset computed as `arrival + delay` is never earlier than the server's
 * real reset (the answer travelled after the server measured the delay), answers from the same window
 * can only lower `remaining`, and at a local rollover every request still in flight is assumed to
 * land in the new window.
 */
export class BucketState {
  /** Requests per window; `undefined` until an answer says, `Infinity` if the server sends no limits. */
  limit: number | undefined;
  /** Slots left in the current window, after the requests in flight took theirs. */
  remaining = 0;
  /** When the current window ends, on the client's clock (ms). */
  resetAt = 0;
  /** Nothing may be sent before this time (a 429's `Retry-After`), on the client's clock (ms). */
  blockedUntil = 0;
  /** Requests sent whose answer (or failure) has not arrived. */
  inFlight = 0;
  private windowMs = DEFAULT_WINDOW_MS;
  // The window was started locally at a rollover; its real end is learnt from the next answer.
  private guessed = false;

  /**
   * Takes a slot if one is free.
   * @param now - the client's clock (ms)
   * @returns 0 when a slot was taken (the caller must `settle` later), otherwise how long to wait in
   *   milliseconds, or {@link WAIT_FOR_ANSWER}
   */
  tryTake(now: number): number {
    if (now < this.blockedUntil) return this.blockedUntil - now;
    const limit = this.limit;
    if (limit === undefined) {
      // CONTRACT: the limit is per credential and unknown before the first answer: probe with one.
      if (this.inFlight > 0) return WAIT_FOR_ANSWER;
    } else if (limit !== Number.POSITIVE_INFINITY) {
      if (now >= this.resetAt) this.rollOver(limit, now);
      if (this.remaining <= 0) return this.resetAt > now ? this.resetAt - now : WAIT_FOR_ANSWER;
      this.remaining--;
    }
    this.inFlight++;
    return 0;
  }

  private rollOver(limit: number, now: number): void {
    this.remaining = limit - this.inFlight;
    this.resetAt = now + this.windowMs;
    this.guessed = true;
  }

  /**
   * Returns the slot of a request whose answer arrived (with its rate-limit headers, if any) or that
   * failed without an answer (`null`).
   * @param info - the answer's headers; `undefined` when the answer had none; `null` when no answer
   * @param now - the client's clock when the answer arrived (ms)
   */
  settle(info: RateLimitInfo | undefined | null, now: number): void {
    this.inFlight--;
    if (info === null) return;
    if (info === undefined) {
      // A server that sends no limits at all is treated as unlimited, but a known limit is kept.
      if (this.limit === undefined) this.limit = Number.POSITIVE_INFINITY;
      return;
    }
    this.apply(info, now);
  }

  private apply(info: RateLimitInfo, now: number): void {
    const resetAt = now + (info.resetDelayMs > 0 ? info.resetDelayMs : 0) + RESET_MARGIN_MS;
    const left = Math.max(0, info.remaining - this.inFlight);
    if (info.resetDelayMs > this.windowMs) this.windowMs = info.resetDelayMs;
    const half = this.windowMs / 2;
    if (this.limit === undefined || this.limit === Number.POSITIVE_INFINITY || resetAt > this.resetAt + half) {
      // A first answer, or one from a newer window than ours.
      this.limit = info.limit;
      this.remaining = left;
      this.resetAt = resetAt;
      this.guessed = false;
      return;
    }
    this.limit = info.limit;
    // An answer from a window that already ended says nothing about the current one.
    if (resetAt < this.resetAt - half) return;
    this.remaining = Math.min(this.remaining, left);
    this.resetAt = this.guessed ? resetAt : Math.min(this.resetAt, resetAt);
    this.guessed = false;
  }

  /**
   * Sends nothing before `until` (a 429 said so), and assumes the window is spent.
   * @param until - client clock (ms)
   */
  block(until: number): void {
    if (until > this.blockedUntil) this.blockedUntil = until;
    this.remaining = 0;
    if (this.resetAt < until) this.resetAt = until;
  }
}
