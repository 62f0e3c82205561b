import { AbortedError, QueueFullError, RateLimitError } from '../errors.js';
import type { QueuedCall, QueueShared } from './call-queue.js';

interface Waiter {
  call: QueuedCall;
  resolve(generation: number): void;
  reject(err: Error): void;
  onAbort: (() => void) | undefined;
}

/**
 * The calls waiting in one credential's queue, in the order they leave: what both the in-process and
 * the shared queue keep alike (the global `maxQueued` bound, the count of waiting calls, a call's
 * signal taking it out of the line), so that only how slots are granted differs between them.
 */
export class WaitingCalls {
  private readonly waiters: Waiter[] = [];

  /**
   * @param shared - the client's bound and count of waiting calls, over all queues
   * @param emptied - called when an aborted call leaves the line empty (a timer may then be disarmed)
   */
  constructor(
    private readonly shared: QueueShared,
    private readonly emptied: () => void = () => {},
  ) {}

  /** Calls waiting. */
  get length(): number {
    return this.waiters.length;
  }

  /** The call that leaves next, if any. */
  get head(): QueuedCall | undefined {
    return this.waiters[0]?.call;
  }

  /**
   * Puts `call` in line and resolves with the generation {@link release} gives it. Refused at once
   * when its signal is already aborted or the client's `maxQueued` calls already wait.
   * @param call - the call, its signal and logger
   * @param first - put it at the head (a retry after a 429 keeps its place)
   * @param added - runs once the call is in line (the queue tries to let calls go)
   */
  add(call: QueuedCall, first: boolean, added: () => void): Promise<number> {
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
      added();
    });
  }

  /**
   * Lets the head call go with `generation`.
   * @param generation - what the call gives back to its queue's `settle`
   */
  release(generation: number): void {
    const waiter = this.waiters.shift();
    if (!waiter) return;
    this.leave(waiter);
    waiter.resolve(generation);
  }

  /**
   * Fails every waiting call with the error `reason` makes for it.
   * @param reason - builds the error of one call
   */
  rejectAll(reason: (call: QueuedCall) => Error): void {
    for (const waiter of this.waiters.splice(0)) {
      this.leave(waiter);
      waiter.reject(reason(waiter.call));
    }
  }

  /**
   * Fails every waiting call with a `max_wait` {@link RateLimitError}: the window reopens later than
   * the client's `maxRateLimitWaitMs`, so waiting would only delay the same refusal.
   * @param waitMs - how long the calls would have to wait
   * @param bucket - the credential's kind
   * @param limit - requests per window, when known
   */
  refuseAll(waitMs: number, bucket: 'app' | 'interaction', limit: number | undefined): void {
    this.rejectAll((call) => new RateLimitError({ retryAfterMs: waitMs, bucket, limit, reason: 'max_wait' }, call));
  }

  private remove(waiter: Waiter): boolean {
    const i = this.waiters.indexOf(waiter);
    if (i < 0) return false;
    this.waiters.splice(i, 1);
    this.leave(waiter);
    if (this.waiters.length === 0) this.emptied();
    return true;
  }

  private leave(waiter: Waiter): void {
    this.shared.queued--;
    if (waiter.onAbort) waiter.call.signal?.removeEventListener('abort', waiter.onAbort);
  }
}
