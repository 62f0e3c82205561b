import type { RateLimitInfo } from './bucket-state.js';
import type { CallQueue, QueuedCall, QueueShared } from './call-queue.js';
import type { Reservation, SharedRateLimit } from './shared-rate-limit.js';
import { WaitingCalls } from './waiting-calls.js';

/** Longest pause between two attempts to reach a bucket store that failed. */
const MAX_STORE_RETRY_MS = 1000;

/**
 * The app token's queue when its bucket is shared between processes: calls leave in arrival order,
 * each once the {@link SharedRateLimit} granted it a slot of the window. One reservation at a time
 * asks for as many slots as calls are waiting; when none is granted the queue waits what the store
 * said (a spent window, a 429's `Retry-After`, or a short poll while another process probes). A store
 * that cannot be reached holds the calls (they are never sent unreserved) and is asked again with
 * back-off, so a restart of the store delays requests instead of drawing 429s.
 */
export class SharedRateLimitQueue implements CallQueue {
  readonly bucket = 'app' as const;
  private currentLimit: number | undefined;
  private readonly waiting: WaitingCalls;
  private readonly slots = new Map<number, string>();
  private nextGeneration = 0;
  private pumping = false;
  private closed = false;
  private wake: (() => void) | undefined;
  private storeFailures = 0;

  /**
   * @param store - the shared bucket
   * @param shared - clock, bounds, counters and emitter of the client
   */
  constructor(
    private readonly store: SharedRateLimit,
    private readonly shared: QueueShared,
  ) {
    this.waiting = new WaitingCalls(shared);
  }

  get limit(): number | undefined {
    return this.currentLimit;
  }

  get size(): number {
    return this.waiting.length;
  }

  get idle(): boolean {
    return this.waiting.length === 0 && this.slots.size === 0 && !this.pumping;
  }

  acquire(call: QueuedCall, first = false): Promise<number> {
    return this.waiting.add(call, first, () => void this.pump());
  }

  settle(info: RateLimitInfo | undefined | null, generation: number): void {
    const slot = this.slots.get(generation);
    if (slot === undefined) return;
    this.slots.delete(generation);
    this.store.settle(slot, info).catch((err: unknown) => this.storeFailed(err, 'settle'));
  }

  block(waitMs: number): void {
    this.store.block(waitMs).catch((err: unknown) => this.storeFailed(err, 'block'));
  }

  close(reason: (call: QueuedCall) => Error): void {
    this.closed = true;
    this.wake?.();
    this.waiting.rejectAll(reason);
  }

  /** Reserves slots for the waiting calls until none waits; one pump runs at a time. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting.length > 0 && !this.closed) {
        let reservation: Reservation;
        try {
          reservation = await this.store.reserve(this.waiting.length);
          this.storeFailures = 0;
        } catch (err) {
          this.storeFailed(err, 'reserve');
          await this.sleep(Math.min(MAX_STORE_RETRY_MS, 50 * 2 ** Math.min(this.storeFailures, 5)));
          continue;
        }
        if (reservation.limit !== undefined) this.currentLimit = reservation.limit;
        this.hand(reservation.slots);
        if (reservation.slots.length > 0) continue;
        if (reservation.waitMs > this.shared.maxWaitMs) {
          this.waiting.refuseAll(reservation.waitMs, this.bucket, this.currentLimit);
          return;
        }
        this.announce(reservation);
        await this.sleep(reservation.waitMs);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Lets one waiting call go per granted slot; a slot no call is left for is given back unused. */
  private hand(slots: readonly string[]): void {
    for (const slot of slots) {
      if (this.waiting.length === 0) {
        this.store.settle(slot, null).catch((err: unknown) => this.storeFailed(err, 'settle'));
        continue;
      }
      const generation = this.nextGeneration++;
      this.slots.set(generation, slot);
      this.waiting.release(generation);
    }
  }

  private announce(reservation: Reservation): void {
    const head = this.waiting.head;
    if (!head || reservation.waitMs < 20 || !this.shared.emitter.has('rateLimited')) return;
    this.shared.emitter.emit('rateLimited', {
      bucket: this.bucket,
      reason: reservation.blocked === true ? 'retry_after' : 'exhausted',
      waitMs: Math.ceil(reservation.waitMs),
      queued: this.waiting.length,
      limit: this.currentLimit,
      method: head.method,
      path: head.path,
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(1, Math.ceil(ms)));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private storeFailed(err: unknown, what: string): void {
    // Logged on the first failure and then every fiftieth, so an outage of the store does not flood the log.
    if (this.storeFailures++ % 50 !== 0) return;
    this.shared.logger.warn(
      { err, operation: what },
      'the shared rate-limit bucket cannot be reached: calls wait for it',
    );
  }
}
