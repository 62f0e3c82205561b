import type { DispatchOutcome } from '../kernel/outcome.js';
import type { HandlerRun } from '../kernel/run.js';
import { ServiceKey } from '../kernel/services.js';
import type { Runs } from './stages.js';

/**
 * What the runs of a bot share with the features that need to act on all of them, or on their
 * dispatch: a streamed answer hands its slot back, and ends at once when the bot begins to stop; every
 * kind's refusals posted as messages go through the one throttle (`mayRefuse`).
 */
export interface RunSlots extends Pick<Runs, 'mayRefuse'> {
  /**
   * Hands back a run's ordering slot and worker while the run goes on: its event's dispatch returns
   * (the board's next events may run), and the event stays unfinished (below the resume point,
   * unacknowledged by a replica) until the run ends. A streamed answer calls it after its first
   * post. Only the first call counts; nothing for a run that holds no slot (a tick).
   * @param run - the run
   */
  releaseSlot(run: HandlerRun): void;
  /**
   * Aborted when the bot begins to stop (`stop()`): the streamed answers going, and those that start
   * from then on, end at once, marked interrupted, and leave their event to the next start.
   */
  readonly stopping: AbortSignal;
}

/** Where the bot's runner offers {@link RunSlots} to the features (a service of the bot). */
export const RUNS = new ServiceKey<RunSlots>('runner');

/**
 * The runs holding a worker right now, with what releases each one's slot (so a shutdown can abandon
 * them by name), and those that released theirs and still go on.
 */
export class RunningHandlers {
  private readonly runs = new Map<HandlerRun, (() => void) | undefined>();
  private readonly released = new Set<Promise<void>>();
  private readonly settledWaiters: (() => void)[] = [];

  /** How many runs hold a worker. */
  get size(): number {
    return this.runs.size;
  }

  /**
   * A run holds a worker from now on.
   * @param run - the run
   * @param release - hands its slot back, once (see {@link RunSlots.releaseSlot}), if it holds one
   */
  add(run: HandlerRun, release: (() => void) | undefined): void {
    this.runs.set(run, release);
  }

  /** A run ended, or was abandoned: its worker is free. */
  delete(run: HandlerRun): void {
    this.runs.delete(run);
  }

  /** Hands back the slot of `run`, if it still holds one. */
  release(run: HandlerRun): void {
    const release = this.runs.get(run);
    if (release === undefined) return;
    this.runs.set(run, undefined);
    release();
  }

  /**
   * Keeps a run that released its slot until it ends: its event's completion and `settled()` wait for it.
   * @param done - the run's end
   * @param outcome - its event's outcome
   */
  hold(done: Promise<void>, outcome: DispatchOutcome): void {
    this.released.add(done);
    void done.then(() => {
      this.released.delete(done);
      if (this.released.size === 0) for (const wake of this.settledWaiters.splice(0)) wake();
    });
    if (outcome.held) outcome.held.push(done);
    else outcome.held = [done];
  }

  /** Resolves once no run that released its slot is still going. */
  settled(): Promise<void> {
    if (this.released.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /**
   * Abandons every run still holding a worker, and logs each by name.
   * @param reason - builds each run's abort reason from its handler's name
   * @param why - the log line
   * @returns the runs abandoned
   */
  abandonAll(reason: (handler: string) => Error, why: string): HandlerRun[] {
    const runs = [...this.runs.keys()];
    for (const run of runs) {
      run.abandon(reason(run.handler));
      run.log.warn({ handler: run.handler, event_id: run.eventId }, why);
    }
    return runs;
  }
}
