import type { Logger } from '@boardbot/protocol';
import type { ErrorContext } from '../errors.js';
import type { RestEventEmitter } from '../events.js';
import type { RateLimitInfo } from './bucket-state.js';

/** What the queue knows of a waiting call. */
export interface QueuedCall extends ErrorContext {
  signal?: AbortSignal | undefined;
  /** The call's logger (bound to its request id), made on demand. */
  log(): Logger;
}

/** Settings and counters shared by every queue of one client. */
export interface QueueShared {
  now(): number;
  maxWaitMs: number;
  maxQueued: number;
  /** Calls waiting in all queues together (the `maxQueued` bound is global). */
  queued: number;
  emitter: RestEventEmitter;
  /** The client's logger, for what no call's logger fits. */
  logger: Logger;
}

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
