import type { RateLimitInfo } from './bucket-state.js';
import type { QueuedCall } from './rate-limit-queue.js';

/**
 * What the executor needs of a credential's queue: the in-process {@link RateLimitQueue}, or the
 * {@link SharedRateLimitQueue} of a bucket shared between processes.
 */
export interface CallQueue {
  /** Which kind of credential this queue serves (for events and errors). */
  readonly bucket: 'app' | 'interaction';
  /** Requests per window, when known. */
  readonly limit: number | undefined;
  /** Calls waiting in this queue. */
  readonly size: number;
  /** Whether nothing is waiting or in flight. */
  readonly idle: boolean;
  /**
   * Takes a slot for `call`; resolves (or returns) the slot's generation, given back to `settle`.
   * @param first - put it at the head (a retry after a 429 keeps its place)
   */
  acquire(call: QueuedCall, first?: boolean): number | Promise<number>;
  /** Gives back the slot of a finished attempt, with the answer's headers (`null`: no answer). */
  settle(info: RateLimitInfo | undefined | null, generation: number): void;
  /** Holds every call of this credential for `waitMs` (a 429's `Retry-After`). */
  block(waitMs: number): void;
  /** Fails every waiting call with the error `reason` makes for it. */
  close(reason: (call: QueuedCall) => Error): void;
}
