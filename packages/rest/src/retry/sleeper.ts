import { AbortedError, type ErrorContext } from '../errors.js';

interface Sleep {
  timer: NodeJS.Timeout;
  reject(err: Error): void;
  context: ErrorContext;
}

/**
 * Back-off waits that a call's signal, or the client's `close()`, cuts short, so a closed client
 * leaves no timer behind.
 */
export class Sleeper {
  private readonly sleeps = new Set<Sleep>();
  private closed = false;

  /**
   * Waits `ms`, or rejects with `AbortedError` when `signal` aborts first.
   * @param ms - the delay
   * @param context - the call, for the error
   * @param signal - the call's signal
   */
  sleep(ms: number, context: ErrorContext, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new AbortedError('signal', context, signal.reason));
    if (this.closed) return Promise.reject(new AbortedError('closed', context));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(sleep.timer);
        this.sleeps.delete(sleep);
        reject(new AbortedError('signal', context, signal?.reason));
      };
      const sleep: Sleep = {
        timer: setTimeout(() => {
          this.sleeps.delete(sleep);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms),
        reject: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
        context,
      };
      this.sleeps.add(sleep);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Ends every pending wait, and any later one, with `AbortedError('closed')`. */
  cancelAll(): void {
    this.closed = true;
    for (const sleep of this.sleeps) {
      clearTimeout(sleep.timer);
      sleep.reject(new AbortedError('closed', sleep.context));
    }
    this.sleeps.clear();
  }
}
