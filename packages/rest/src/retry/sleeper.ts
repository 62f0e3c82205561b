import { setTimeout as wait } from 'node:timers/promises';
import { AbortedError, type ErrorContext } from '../errors.js';

/**
 * Back-off waits that a call's signal, or the client's `close()`, cuts short, so a closed client
 * leaves no timer behind.
 */
export class Sleeper {
  private readonly closing = new AbortController();

  /**
   * Waits `ms`, or rejects with `AbortedError` when `signal` aborts first.
   * @param ms - the delay
   * @param context - the call, for the error
   * @param signal - the call's signal
   */
  async sleep(ms: number, context: ErrorContext, signal?: AbortSignal): Promise<void> {
    const closing = this.closing.signal;
    try {
      await wait(ms, undefined, { signal: signal ? AbortSignal.any([signal, closing]) : closing });
    } catch (error) {
      if (signal?.aborted) throw new AbortedError('signal', context, signal.reason);
      if (closing.aborted) throw new AbortedError('closed', context);
      throw error;
    }
  }

  /** Ends every pending wait, and any later one, with `AbortedError('closed')`. */
  cancelAll(): void {
    this.closing.abort();
  }
}
