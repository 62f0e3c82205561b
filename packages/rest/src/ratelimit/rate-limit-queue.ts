import { BucketState, type RateLimitInfo, WAIT_FOR_ANSWER } from './bucket-state.js';
import type { CallQueue, QueuedCall, QueueShared } from './call-queue.js';
import { WaitingCalls } from './waiting-calls.js';

/**
 * The fair, bounded queue of one credential: calls leave in arrival order (a call that must retry
 * after a 429 keeps its place at the head), none leaves while the window is known to be spent, and
 * one timer at most waits for the window to reopen.
 */
export class RateLimitQueue implements CallQueue {
  /** The window as the client sees it. */
  readonly state = new BucketState();
  private readonly waiting: WaitingCalls;
  private timer: NodeJS.Timeout | undefined;
  private timerDue = 0;
  /** The window end last announced: waking early and re-arming for it is the same wait, said once. */
  private announcedDue = Number.NEGATIVE_INFINITY;

  /**
   * @param bucket - which kind of credential this queue serves (for events and errors)
   * @param shared - clock, bounds and emitter of the client
   */
  constructor(
    readonly bucket: 'app' | 'interaction',
    private readonly shared: QueueShared,
  ) {
    // A call aborted out of the line may leave nobody to wake the timer for.
    this.waiting = new WaitingCalls(shared, () => this.clearTimer());
  }

  /**
   * Takes a slot for `call`: at once when nobody waits and the window has room (then the window
   * generation itself, no promise is made), else a promise of it that resolves when the call may go.
   * @param call - the call, its signal and logger
   * @param first - put it at the head (a retry after a 429 keeps its place)
   */
  acquire(call: QueuedCall, first = false): number | Promise<number> {
    if (this.waiting.length === 0 && this.state.tryTake(this.shared.now()) === 0) return this.state.generation;
    return this.waiting.add(call, first, () => this.drain());
  }

  /** Lets waiting calls go while the window has room; otherwise arms one timer or fails them. */
  private drain(): void {
    while (this.waiting.length > 0) {
      const now = this.shared.now();
      const wait = this.state.tryTake(now);
      if (wait === 0) {
        this.waiting.release(this.state.generation);
        continue;
      }
      if (wait === WAIT_FOR_ANSWER) {
        // An answer in flight will call `settle`, which drains again.
        this.clearTimer();
        return;
      }
      if (wait > this.shared.maxWaitMs) {
        this.clearTimer();
        this.waiting.refuseAll(wait, this.bucket, this.state.limit);
        return;
      }
      this.arm(wait, now);
      return;
    }
    this.clearTimer();
  }

  private arm(wait: number, now: number): void {
    const due = now + wait;
    if (this.timer) {
      // An answer can bring the reset closer (a guessed window end replaced by the server's).
      if (due >= this.timerDue) return;
      clearTimeout(this.timer);
    }
    // A timer can fire just before `now()` reaches the reset (timers and the wall clock differ by a
    // millisecond or so); re-arming for the same window end is not a new wait to announce.
    const announce = this.timer === undefined && due > this.announcedDue;
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, Math.ceil(wait));
    if (!announce) return;
    this.announcedDue = due;
    const head = this.waiting.head as QueuedCall;
    const event = {
      bucket: this.bucket,
      reason: now < this.state.blockedUntil ? ('retry_after' as const) : ('exhausted' as const),
      waitMs: Math.ceil(wait),
      queued: this.waiting.length,
      limit: this.state.limit,
      method: head.method,
      path: head.path,
    };
    head.log().debug(event, 'waiting for the rate limit');
    if (this.shared.emitter.has('rateLimited')) this.shared.emitter.emit('rateLimited', event);
  }

  private clearTimer(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * Gives back the slot of a finished attempt and lets the next calls go.
   * @param info - the answer's rate-limit headers; `undefined` if it had none; `null` if no answer came
   * @param generation - what `acquire` gave for this request
   */
  settle(info: RateLimitInfo | undefined | null, generation: number): void {
    this.state.settle(info, this.shared.now(), generation);
    if (this.waiting.length > 0) this.drain();
  }

  /**
   * Holds every call of this credential for `waitMs` (a 429's `Retry-After`).
   * @param waitMs - the wait, already clamped
   */
  block(waitMs: number): void {
    this.state.block(this.shared.now() + waitMs);
  }

  /** Whether the queue holds nothing: no waiter, no request in flight, no timer. */
  get idle(): boolean {
    return this.waiting.length === 0 && this.state.inFlight === 0 && this.timer === undefined;
  }

  /** Requests per window, when an answer said. */
  get limit(): number | undefined {
    return this.state.limit;
  }

  /** Calls waiting in this queue. */
  get size(): number {
    return this.waiting.length;
  }

  /**
   * Fails every waiting call with the error `reason` makes for it and disarms the timer.
   * @param reason - builds the error of one call
   */
  close(reason: (call: QueuedCall) => Error): void {
    this.clearTimer();
    this.waiting.rejectAll(reason);
  }
}
