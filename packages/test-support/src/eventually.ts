import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a wait may last and how often it tries. */
export interface WaitOptions {
  /**
   * Longest wait, in milliseconds. The bound is there to end a broken test, not to time the
   * behaviour: a reconnect with back-off, an emulator restart or a bot process that builds first can
   * take seconds on a loaded two-core machine.
   * @defaultValue 15000
   */
  timeoutMs?: number;
  /** Pause between two tries, in milliseconds. @defaultValue 10 */
  intervalMs?: number;
  /**
   * What to add to the error of a wait that never ended (`until`): the state that explains it, such
   * as the messages still unanswered or the processes' warnings.
   * @defaultValue nothing
   */
  report?: () => string | Promise<string>;
}

/**
 * Retries `attempt` until it returns without throwing, and resolves with what it returned: an
 * assertion that passes, or a value that exists. When the time is up it throws the last error.
 *
 * @param attempt - an assertion, or a call that throws while its value is not there yet
 * @param options - the bound and the pace
 */
export async function eventually<T>(attempt: () => T | Promise<T>, options: WaitOptions = {}): Promise<T> {
  // The monotonic clock, which a test's fake `Date` does not stop.
  const deadline = performance.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (performance.now() >= deadline) throw error;
    }
    await sleep(options.intervalMs ?? 10);
  }
}

/**
 * Resolves once `check` returns true (or a promise of true).
 *
 * @param check - the condition, tried again until it holds
 * @param what - what the condition means, for the error when it never holds
 * @param options - the bound and the pace
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  options: WaitOptions = {},
): Promise<void> {
  try {
    await eventually(
      async () => {
        if (!(await check())) throw new Error(`never happened: ${what}`);
      },
      { intervalMs: 5, ...options },
    );
  } catch (error) {
    if (!options.report) throw error;
    throw new Error(`never happened: ${what}\n${await options.report()}`, { cause: error });
  }
}

/**
 * Calls `attempt` until it returns a value that `accept` takes, and resolves with that value; an
 * attempt that throws counts as not yet.
 *
 * @param attempt - fetches the value
 * @param accept - whether the value is the one waited for
 * @param options - the bound and the pace
 */
export function eventuallyValue<T>(
  attempt: () => Promise<T>,
  accept: (value: T) => boolean,
  options: WaitOptions = {},
): Promise<T> {
  return eventually(async () => {
    const value = await attempt();
    if (!accept(value)) throw new Error(`gave up waiting; last value: ${JSON.stringify(value)}`);
    return value;
  }, options);
}
