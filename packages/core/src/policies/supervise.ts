import { HandlerTimeoutError, WriteDroppedError } from '../errors.js';
import type { Clock } from '../kernel/clock.js';
import type { HandlerRun } from '../kernel/run.js';
import { RunKey } from '../kernel/run-key.js';
import type { Deadlines } from './deadlines.js';

/** How a supervised run ended. */
export type Outcome = { ok: true } | { ok: false; error: unknown };

const OK: Outcome = { ok: true };

/** A later deadline a run asked for (a streamed answer runs longer than a handler's timeout). */
const DEADLINE = new RunKey<{ at: number; ms: number }>('deadline');

/**
 * Lets a run go on for `ms` more milliseconds from now, if its deadline (`handlerTimeoutMs`) is
 * sooner: a streamed answer asks for its own maximum duration. Read when the deadline passes.
 * @param run - the run
 * @param ms - the time it needs from now
 * @param clock - the runtime's clock
 */
export function extendDeadline(run: HandlerRun, ms: number, clock: Clock): void {
  const at = clock.now() + ms;
  if (at > (run.get(DEADLINE)?.at ?? 0)) run.set(DEADLINE, { at, ms });
}

/**
 * Runs `work` until it settles or its run is abandoned: past its deadline, or earlier by a shutdown
 * or a burst's newer message. A JavaScript promise cannot be cancelled, so abandoning aborts the
 * run's signal (the handler's `ctx.signal`), refuses its later writes, and gives the caller the
 * reason at once, freeing the worker; the promise keeps running and its late end is logged.
 *
 * @param run - the handler run
 * @param work - the run's stages
 * @param options - the timeout, the clock and the runner's deadlines
 */
export function supervise(
  run: HandlerRun,
  work: () => Promise<void>,
  options: { timeoutMs: number; clock: Clock; deadlines: Deadlines },
): Promise<Outcome> {
  const { timeoutMs, clock, deadlines } = options;
  return new Promise((resolve) => {
    let ended = false;
    const end = (outcome: Outcome): boolean => {
      if (ended) return false;
      ended = true;
      deadlines.end(watch);
      resolve(outcome);
      return true;
    };
    // When the deadline passes, a later one the run asked for is waited for; else it is abandoned.
    const expire = (): void => {
      const later = run.get(DEADLINE);
      if (later !== undefined && later.at > clock.now()) watch = deadlines.watch(later.at, expire);
      else run.abandon(new HandlerTimeoutError(run.handler, later?.ms ?? timeoutMs));
    };
    let watch = deadlines.watch(clock.now() + timeoutMs, expire);
    run.onAbandoned(() => end({ ok: false, error: run.abandonReason }));
    work().then(
      () => {
        if (!end(OK)) run.log.warn({ handler: run.handler }, 'handler finished after it was abandoned');
      },
      (error: unknown) => {
        // A dropped write was logged when it was refused.
        if (!end({ ok: false, error }) && !(error instanceof WriteDroppedError))
          run.log.warn({ handler: run.handler, err: error }, 'handler failed after it was abandoned');
      },
    );
  });
}
