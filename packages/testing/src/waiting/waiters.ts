import { WaitTimeoutError } from '../errors.js';

interface Waiter {
  check(): boolean;
  fail(error: Error): void;
}

/**
 * Everything a test is waiting for, re-checked whenever the harness learns something new (an
 * activity frame, an event the bot received). A wait ends when its check finds what it looks for, when
 * its timeout passes (with a report of what happened instead), or when the platform fails or closes.
 */
export class Waiters {
  private readonly waiting = new Set<Waiter>();
  private failure: Error | undefined;

  /**
   * Resolves with the first non-undefined result of `check`, run now and after every
   * {@link notify}. `check` may claim what it finds (a message a wait returns is not returned twice).
   *
   * @param check - looks for the awaited thing
   * @param timeoutMs - how long to wait
   * @param report - builds the failure message when the timeout passes (what happened instead)
   * @throws WaitTimeoutError after `timeoutMs`; the platform's failure if it broke or closed
   */
  until<T>(check: () => T | undefined, timeoutMs: number, report: () => string): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const first = check();
    if (first !== undefined) return Promise.resolve(first);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        check: () => {
          const found = check();
          if (found === undefined) return false;
          done();
          resolve(found);
          return true;
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        let message: string;
        try {
          message = report();
        } catch (error) {
          message = `timed out after ${timeoutMs} ms (and the report failed: ${String(error)})`;
        }
        waiter.fail(new WaitTimeoutError(message, timeoutMs));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(waiter);
      };
      this.waiting.add(waiter);
    });
  }

  /** Re-runs every pending check (something changed). */
  notify(): void {
    for (const w of [...this.waiting]) w.check();
  }

  /** Ends every pending and future wait with `error` (the platform broke or closed). */
  fail(error: Error): void {
    this.failure ??= error;
    for (const w of [...this.waiting]) w.fail(error);
  }

  /** Waits still pending. */
  get size(): number {
    return this.waiting.size;
  }
}
