import type { Logger } from '@boardbot/protocol';
import { HandlerTimeoutError } from '../errors.js';
import type { Clock } from '../kernel/clock.js';

/** How a supervised run ended. */
export type Outcome = { ok: true } | { ok: false; error: unknown };

/**
 * Runs `work` until it settles or `timeoutMs` passes. A hung handler cannot be cancelled, so on
 * timeout its signal is aborted and the caller gets a `HandlerTimeoutError` at once, freeing the
 * worker slot; the promise keeps running and its late end is logged.
 *
 * @param label - `Class.method`, for messages
 * @param work - the handler pipeline
 * @param options - timeout, clock, the run's abort controller, logger
 */
export async function supervise(
  label: string,
  work: () => Promise<void>,
  options: { timeoutMs: number; clock: Clock; controller: AbortController; log: Logger },
): Promise<Outcome> {
  const { timeoutMs, clock, controller, log } = options;
  let timer: unknown;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = clock.setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const running = work().then(() => 'done' as const);
  try {
    if ((await Promise.race([running, timeout])) === 'done') return { ok: true };
    const error = new HandlerTimeoutError(label, timeoutMs);
    controller.abort(error);
    running.then(
      () => log.warn({ handler: label }, 'handler finished after its timeout'),
      (late: unknown) => log.warn({ handler: label, err: late }, 'handler failed after its timeout'),
    );
    return { ok: false, error };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clock.clearTimeout(timer);
  }
}
