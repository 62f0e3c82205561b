import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from '@boardbot/protocol';
import { WriteDroppedError } from '../errors.js';

/** The run the runtime is answering for (its error hooks and apology), in that async flow only. */
const answeringFor = new AsyncLocalStorage<HandlerRun>();

/** A context method that writes to the platform. */
export type WriteOperation = 'reply' | 'followUp' | 'send' | 'edit' | 'delete';

/**
 * One run of one handler for one event: its name, its abort signal, and whether it may still write.
 * A run is abandoned when it outlives `handlerTimeoutMs` or the bot's `shutdownTimeoutMs`: its
 * signal is aborted, and from then on {@link HandlerRun.admitWrite} refuses its writes.
 */
export class HandlerRun {
  private readonly controller = new AbortController();

  /**
   * @param handler - `Class.method` of the handler
   * @param eventId - the gateway id of the event it handles
   * @param log - the event's logger
   */
  constructor(
    readonly handler: string,
    readonly eventId: string,
    readonly log: Logger,
  ) {}

  /** Aborted (with the reason) when the run is abandoned; the handler's `ctx.signal`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the run was abandoned. */
  get abandoned(): boolean {
    return this.controller.signal.aborted;
  }

  /**
   * Gives up on the run: aborts its signal with `reason`. Only the first call counts.
   * @param reason - a `HandlerTimeoutError` or a `ShutdownTimeoutError`
   */
  abandon(reason: Error): void {
    if (!this.abandoned) this.controller.abort(reason);
  }

  /**
   * Runs the runtime's own answer for this run (its error hooks and its apology): writes made in
   * that async flow go out even though the run was abandoned, while the handler's own late writes,
   * made in its flow at the same time, are still dropped.
   * @param answer - the hooks and the apology
   */
  answerAsRuntime<T>(answer: () => Promise<T>): Promise<T> {
    return answeringFor.run(this, answer);
  }

  /**
   * The one place that decides whether a write made on behalf of this run may go out: not once the
   * run was abandoned, since the runtime has already apologised for it (a late reply would follow
   * the apology), unless the runtime itself is answering ({@link HandlerRun.answerAsRuntime}). A
   * write made before that goes out as usual. A refused write is logged with the handler's name
   * and throws `WriteDroppedError`, so the handler's code does not go on as if it had been sent.
   *
   * @param operation - the context method that writes
   * @throws WriteDroppedError when the handler's run was abandoned
   */
  admitWrite(operation: WriteOperation): void {
    if (!this.abandoned || answeringFor.getStore() === this) return;
    this.log.warn(
      { handler: this.handler, write: operation },
      'write dropped: the handler was abandoned (timeout or shutdown)',
    );
    throw new WriteDroppedError(this.handler, operation, this.signal.reason);
  }
}

/** The runs holding a worker right now, so that a shutdown can abandon them by name. */
export class RunningHandlers {
  private readonly runs = new Set<HandlerRun>();

  /**
   * Tracks `run` while `work` holds its worker.
   * @param run - the run
   * @param work - resolves when the worker is free again
   */
  async track<T>(run: HandlerRun, work: () => Promise<T>): Promise<T> {
    this.runs.add(run);
    try {
      return await work();
    } finally {
      this.runs.delete(run);
    }
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
      run.log.warn({ handler: run.handler }, why);
    }
    return runs;
  }
}
