/** The rate-limit headers of one answer, read. */
export interface RateLimitInfo {
  /** `X-RateLimit-Limit`: requests per window. */
  limit: number;
  /** `X-RateLimit-Remaining`: requests left in the window when the server answered. */
  remaining: number;
  /** `X-RateLimit-Reset`, as a delay in milliseconds from when the answer arrived. */
  resetDelayMs: number;
}

/** Wait for an answer (not for a time): a probe of the window is in flight. */
export const WAIT_FOR_ANSWER = Number.POSITIVE_INFINITY;

// The server rounds the reset to 3 decimals; a few milliseconds of margin keep rounding from making the
// client move on a hair before the server does.
const RESET_MARGIN_MS = 5;

/**
 * The client's view of one credential's rate-limit window, conservative by construction, so that a
 * burst of any size never draws a 429 from a server that counts the way the contract says.
 *
 * - Each window starts with a **probe**: when the window is unknown or has ended, one request goes
 *   alone and its answer tells how many slots the new window really has left. Requests that landed
 *   there before it (late ones of the previous window) are already counted in that answer, and the
 *   ones still in flight are subtracted.
 * - Then slots are **reserved** before a request leaves, and answers can only lower `remaining`.
 * - A reset computed as `arrival + delay` is never earlier than the server's (the answer travelled
 *   after the server measured the delay), so the next probe never leaves before the window ends.
 * - An answer to a request sent in an earlier window (an older `generation`) is ignored.
 *
 * The price is one round trip per window, spent only while calls are waiting.
 */
export class BucketState {
  /** Requests per window; `undefined` until an answer says, `Infinity` if the server sends no limits. */
  limit: number | undefined;
  /** Slots left in the current window, after the requests in flight took theirs. */
  remaining = 0;
  /** When the current window ends, on the client's clock (ms); 0 when unknown. */
  resetAt = 0;
  /** Nothing may be sent before this time (a 429's `Retry-After`), on the client's clock (ms). */
  blockedUntil = 0;
  /** Requests sent whose answer (or failure) has not arrived. */
  inFlight = 0;
  /** Counts windows; a request remembers the one it was sent in and gives it back to `settle`. */
  generation = 0;
  private probing = false;

  /**
   * Takes a slot if one is free.
   * @param now - the client's clock (ms)
   * @returns 0 when a slot was taken (the caller must `settle` it later with the `generation` read
   *   right after), otherwise how long to wait in milliseconds, or {@link WAIT_FOR_ANSWER}
   */
  tryTake(now: number): number {
    if (now < this.blockedUntil) return this.blockedUntil - now;
    if (this.limit === Number.POSITIVE_INFINITY) {
      this.inFlight++;
      return 0;
    }
    if (this.limit === undefined || now >= this.resetAt) {
      // CONTRACT: the window is per credential; what is left of a new one is only known from an answer.
      if (this.probing) return WAIT_FOR_ANSWER;
      this.probing = true;
      this.remaining = 0;
      this.generation++;
      this.inFlight++;
      return 0;
    }
    if (this.remaining <= 0) return this.resetAt - now;
    this.remaining--;
    this.inFlight++;
    return 0;
  }

  /**
   * Returns the slot of a request whose answer arrived (with its rate-limit headers, if any) or that
   * failed without an answer (`null`), and learns from the headers.
   * @param info - the answer's headers; `undefined` when the answer had none; `null` when no answer
   * @param now - the client's clock when the answer arrived (ms)
   * @param generation - the {@link BucketState.generation} the request was sent in
   */
  settle(info: RateLimitInfo | undefined | null, now: number, generation: number): void {
    this.inFlight--;
    if (generation !== this.generation) return;
    const probe = this.probing;
    this.probing = false;
    if (info === null) return;
    if (info === undefined) {
      // A server that sends no limits at all is treated as unlimited; a known limit is kept.
      if (this.limit === undefined) this.limit = Number.POSITIVE_INFINITY;
      return;
    }
    const resetAt = now + (info.resetDelayMs > 0 ? info.resetDelayMs : 0) + RESET_MARGIN_MS;
    const left = Math.max(0, info.remaining - this.inFlight);
    this.limit = info.limit;
    if (probe) {
      this.remaining = left;
      this.resetAt = resetAt;
    } else {
      if (left < this.remaining) this.remaining = left;
      if (resetAt < this.resetAt) this.resetAt = resetAt;
    }
  }

  /**
   * Sends nothing before `until` (a 429 said so); the window after it starts with a probe.
   * @param until - client clock (ms)
   */
  block(until: number): void {
    if (until > this.blockedUntil) this.blockedUntil = until;
    this.remaining = 0;
    if (this.resetAt < until) this.resetAt = until;
  }
}
