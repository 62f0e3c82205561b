import type { RateLimitInfo } from './bucket-state.js';

/** What a {@link SharedRateLimit} grants for one request of slots. */
export interface Reservation {
  /** The slots granted (between 0 and the count asked for), each to be settled once, by its id. */
  slots: string[];
  /**
   * When no slot was granted: how long to wait before asking again, in milliseconds (a short poll
   * while another process's probe of a new window is in flight).
   */
  waitMs: number;
  /** Whether the wait comes from a 429's `Retry-After` rather than a spent window. */
  blocked?: boolean;
  /** Requests per window, when known. */
  limit?: number | undefined;
}

/**
 * A rate-limit bucket kept outside the process, so that several processes sharing one app token
 * together stay within its window (`@boardbot/redis` keeps it in Redis). It counts the way
 * `BucketState` does (a probe opens each window, answers only lower what is left, requests in flight
 * are subtracted), on state every process shares. Give it to the REST client as `sharedRateLimit`:
 * the app token's calls then reserve their slot here before they are sent.
 */
export interface SharedRateLimit {
  /**
   * Reserves up to `count` slots of the current window.
   * @param count - how many calls are waiting (at least 1)
   */
  reserve(count: number): Promise<Reservation>;
  /**
   * Gives back a slot once its request was answered, and teaches the bucket the answer's headers.
   * @param slot - a slot id from {@link SharedRateLimit.reserve}
   * @param info - the answer's rate-limit headers; `undefined` when it had none; `null` when no answer came
   */
  settle(slot: string, info: RateLimitInfo | undefined | null): Promise<void>;
  /**
   * Holds every process's calls for `waitMs` (a 429's `Retry-After`).
   * @param waitMs - the wait, already clamped
   */
  block(waitMs: number): Promise<void>;
}
