import type { HandlerRun } from '../kernel/scope.js';

/** The runs holding a worker right now, so that a shutdown can abandon them by name. */
export class RunningHandlers {
  private readonly runs = new Set<HandlerRun>();
  private stopping = false;

  /** How many runs hold a worker. */
  get size(): number {
    return this.runs.size;
  }

  /**
   * Tracks `run` while `work` holds its worker.
   * @param run - the run
   * @param work - resolves when the worker is free again
   */
  async track<T>(run: HandlerRun, work: () => Promise<T>): Promise<T> {
    this.runs.add(run);
    // A run that starts while the bot stops (an event queued before the stop) is told at once.
    if (this.stopping) run.interrupt();
    try {
      return await work();
    } finally {
      this.runs.delete(run);
    }
  }

  /** Tells every run, now and from now on, that the bot is stopping (see `HandlerRun.stopSignal`). */
  interruptAll(): void {
    this.stopping = true;
    for (const run of this.runs) run.interrupt();
  }

  /**
   * Abandons every run still holding a worker, and logs each by name.
   * @param reason - builds each run's abort reason from its handler's name
   * @param why - the log line
   * @returns the runs abandoned
   */
  abandonAll(reason: (handler: string) => Error, why: string): HandlerRun[] {
    const runs = [...this.runs];
    for (const run of runs) {
      run.abandon(reason(run.handler));
      run.log.warn({ handler: run.handler, event_id: run.eventId }, why);
    }
    return runs;
  }
}
