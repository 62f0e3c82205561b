import { HandlerTimeoutError, WriteDroppedError } from '../errors.js';
import type { Clock } from '../kernel/clock.js';
import type { HandlerRun } from '../kernel/scope.js';

/** How a supervised run ended. */
export type Outcome = { ok: true } | { ok: false; error: unknown };

/**
 * Runs `work` until it settles or its run is abandoned: after `timeoutMs`, or earlier by a shutdown.
 * A JavaScript promise cannot be cancelled, so abandoning aborts the run's signal (the handler's
 * `ctx.signal`), refuses its later writes, and gives the caller the abort reason at once, freeing
 * the worker slot; the promise keeps running and its late end is logged.
 *
 * @param run - the handler run
 * @param work - the handler pipeline
 * @param options - timeout and clock
 */
export async function supervise(
  run: HandlerRun,
  work: () => Promise<void>,
  options: { timeoutMs: number; clock: Clock },
): Promise<Outcome> {
  const { timeoutMs, clock } = options;
  const arm = (ms: number) => clock.setTimeout(() => run.abandon(new HandlerTimeoutError(run.handler, ms)), ms);
  let timer = arm(timeoutMs);
  let deadline = clock.now() + timeoutMs;
  // A streamed answer runs longer than a handler's timeout: it moves the deadline to its own bound.
  run.supervisedBy((ms) => {
    if (clock.now() + ms <= deadline) return;
    clock.clearTimeout(timer);
    deadline = clock.now() + ms;
    timer = arm(ms);
  });
  const running = run.enter(work).then(() => 'done' as const);
  try {
    if ((await Promise.race([running, run.abandonment])) === 'done') return { ok: true };
    const { handler, log } = run;
    running.then(
      () => log.warn({ handler }, 'handler finished after it was abandoned'),
      (late: unknown) => {
        // A dropped write was logged when it was refused.
        if (!(late instanceof WriteDroppedError))
          log.warn({ handler, err: late }, 'handler failed after it was abandoned');
      },
    );
    return { ok: false, error: run.signal.reason };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clock.clearTimeout(timer);
  }
}
