import type { CallQueue, QueuedCall, QueueShared } from './call-queue.js';
import { RateLimitQueue } from './rate-limit-queue.js';
import type { SharedRateLimit } from './shared-rate-limit.js';
import { SharedRateLimitQueue } from './shared-rate-limit-queue.js';

/**
 * One rate-limit queue per credential (CONTRACT "Limits": a bucket per app token, and one per
 * interaction token for endpoint 12). Interaction queues are dropped as soon as they are idle: a
 * token is answered a few times and forgotten, and a fresh queue simply probes with one request.
 * The app token's queue reserves its slots in a {@link SharedRateLimit} when one is given (replicas
 * sharing the token); an interaction token is answered by the one process handling its event.
 */
export class Buckets {
  /** The app token's queue. */
  readonly app: CallQueue;
  private readonly interactions = new Map<string, RateLimitQueue>();

  /**
   * @param shared - clock, bounds, counters and emitter of the client
   * @param sharedRateLimit - the app token's bucket shared with other processes, if any
   */
  constructor(
    private readonly shared: QueueShared,
    sharedRateLimit?: SharedRateLimit,
  ) {
    this.app = sharedRateLimit ? new SharedRateLimitQueue(sharedRateLimit, shared) : new RateLimitQueue('app', shared);
  }

  /**
   * The queue of an interaction token (kept in memory only, never logged).
   * @param token - the interaction token
   */
  interaction(token: string): RateLimitQueue {
    let queue = this.interactions.get(token);
    if (!queue) {
      queue = new RateLimitQueue('interaction', this.shared);
      this.interactions.set(token, queue);
    }
    return queue;
  }

  /**
   * Forgets an interaction token's queue once nothing is pending on it.
   * @param token - the interaction token
   */
  release(token: string): void {
    const queue = this.interactions.get(token);
    if (queue?.idle) this.interactions.delete(token);
  }

  /**
   * Fails every waiting call of every queue.
   * @param reason - builds the error of one call
   */
  close(reason: (call: QueuedCall) => Error): void {
    this.app.close(reason);
    for (const queue of this.interactions.values()) queue.close(reason);
    this.interactions.clear();
  }
}
