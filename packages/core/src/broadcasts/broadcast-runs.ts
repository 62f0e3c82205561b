import { InvalidBroadcastError } from '../errors.js';

/**
 * The broadcasts a bot runs now, by id: one at a time per id in a process (a second call of a running
 * id is refused), and each cancelled by the bot's stop, whose REST client must outlive them.
 */
export class BroadcastRuns {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();

  /**
   * Runs `work` with a signal that the caller's `signal` and {@link BroadcastRuns.stop} both abort.
   * @param id - the broadcast's id
   * @param signal - the caller's signal, if any
   * @param work - the broadcast
   */
  run<T>(id: string, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.running.has(id)) {
      return Promise.reject(
        new InvalidBroadcastError(`the broadcast "${id}" already runs in this process (wait for its call)`),
      );
    }
    const controller = new AbortController();
    const done = work(signal ? AbortSignal.any([signal, controller.signal]) : controller.signal);
    const entry = { controller, done };
    this.running.set(id, entry);
    const leave = () => {
      if (this.running.get(id) === entry) this.running.delete(id);
    };
    done.then(leave, leave);
    return done;
  }

  /** Cancels every running broadcast and resolves once each call has ended. */
  async stop(): Promise<void> {
    const runs = [...this.running.values()];
    for (const run of runs) run.controller.abort();
    await Promise.allSettled(runs.map((r) => r.done));
  }
}
