import type { Logger } from '@boardbot/protocol';
import { AbortedError, type ErrorContext, QueueFullError, RateLimitError } from '../errors.js';
import type { RestEventEmitter } from '../events.js';
import { BucketState, type RateLimitInfo, WAIT_FOR_ANSWER } from './bucket-state.js';
import type { CallQueue } from './call-queue.js';

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

interface Waiter {
  call: QueuedCall;
  resolve(generation: number): void;
  reject(err: Error): void;
  onAbort: (() => void) | undefined;
}

/**
 * The fair, bounded queue of one credential: calls leave in arrival order (a call that must retry
 * after a 429 keeps its place at the head), none leaves while the window is known to be spent, and
 * one timer at most waits for the window to reopen.
 */
export class RateLimitQueue implements CallQueue {
  /** The window as the client sees it. */
  readonly state = new BucketState();
  private readonly waiters: Waiter[] = [];
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
  ) {}

  /**
   * Takes a slot for `call`: at once when nobody waits and the window has room (then the window
   * generation itself, no promise is made), else a promise of it that resolves when the call may go.
   * @param call - the call, its signal and logger
   * @param first - put it at the head (a retry after a 429 keeps its place)
   */
  acquire(call: QueuedCall, first = false): number | Promise<number> {
    if (this.waiters.length === 0 && this.state.tryTake(this.shared.now()) === 0) return this.state.generation;
    return this.enqueue(call, first);
  }

  private enqueue(call: QueuedCall, first: boolean): Promise<number> {
    const { signal } = call;
    if (signal?.aborted) return Promise.reject(new AbortedError('signal', call, signal.reason));
    if (this.shared.queued >= this.shared.maxQueued) {
      return Promise.reject(new QueueFullError(this.shared.maxQueued, call));
    }
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = { call, resolve, reject, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          if (this.remove(waiter)) reject(new AbortedError('signal', call, signal.reason));
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.shared.queued++;
      if (first) this.waiters.unshift(waiter);
      else this.waiters.push(waiter);
      this.drain();
    });
  }

  private remove(waiter: Waiter): boolean {
    const i = this.waiters.indexOf(waiter);
    if (i < 0) return false;
    this.waiters.splice(i, 1);
    this.leave(waiter);
    if (this.waiters.length === 0) this.clearTimer();
    return true;
  }

  private leave(waiter: Waiter): void {
    this.shared.queued--;
    if (waiter.onAbort) waiter.call.signal?.removeEventListener('abort', waiter.onAbort);
  }

  /** Lets waiting calls go while the window has room; otherwise arms one timer or fails them. */
  private drain(): void {
    while (this.waiters.length > 0) {
      const now = this.shared.now();
      const wait = this.state.tryTake(now);
      if (wait === 0) {
        const waiter = this.waiters.shift() as Waiter;
        this.leave(waiter);
        waiter.resolve(this.state.generation);
        continue;
      }
      if (wait === WAIT_FOR_ANSWER) {
        // An answer in flight will call `settle`, which drains again.
        this.clearTimer();
        return;
      }
      if (wait > this.shared.maxWaitMs) {
        this.failAll(wait);
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
    const head = (this.waiters[0] as Waiter).call;
    const event = {
      bucket: this.bucket,
      reason: now < this.state.blockedUntil ? ('retry_after' as const) : ('exhausted' as const),
      waitMs: Math.ceil(wait),
      queued: this.waiters.length,
      limit: this.state.limit,
      method: head.method,
      path: head.path,
    };
    head.log().debug(event, 'waiting for the rate limit');
    if (this.shared.emitter.has('rateLimited')) this.shared.emitter.emit('rateLimited', event);
  }

  private failAll(wait: number): void {
    this.clearTimer();
    for (const waiter of this.waiters.splice(0)) {
      this.leave(waiter);
      waiter.reject(
        new RateLimitError(
          { retryAfterMs: wait, bucket: this.bucket, limit: this.state.limit, reason: 'max_wait' },
          waiter.call,
        ),
      );
    }
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
    if (this.waiters.length > 0) this.drain();
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
    return this.waiters.length === 0 && this.state.inFlight === 0 && this.timer === undefined;
  }

  /** Requests per window, when an answer said. */
  get limit(): number | undefined {
    return this.state.limit;
  }

  /** Calls waiting in this queue. */
  get size(): number {
    return this.waiters.length;
  }

  /**
   * Fails every waiting call with the error `reason` makes for it and disarms the timer.
   * @param reason - builds the error of one call
   */
  close(reason: (call: QueuedCall) => Error): void {
    this.clearTimer();
    for (const waiter of this.waiters.splice(0)) {
      this.leave(waiter);
      waiter.reject(reason(waiter.call));
    }
  }
}
