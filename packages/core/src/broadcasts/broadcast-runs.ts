import { InvalidBroadcastError } from '../errors.js';
import type { BroadcastBody, BroadcastOptions, BroadcastReport, BroadcastTarget } from './broadcast-options.js';
import { type BroadcastHost, runBroadcast } from './run-broadcast.js';

/**
 * The broadcasts a bot runs now, by id: one at a time per id in a process (a second call of a running
 * id is refused), and each cancelled by the bot's stop, whose REST client must outlive them.
 */
export class BroadcastRuns {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();

  /** @param host - what the broadcasts run on */
  constructor(private readonly host: BroadcastHost) {}

  /**
   * Runs a broadcast (see {@link runBroadcast}) with a signal that the caller's and
   * {@link BroadcastRuns.stop} both abort.
   * @param target - the boards
   * @param body - the message
   * @param options - its id, signal, progress callback and record life
   */
  run(target: BroadcastTarget, body: BroadcastBody, options: BroadcastOptions): Promise<BroadcastReport> {
    const { id } = options;
    const state = this.host.state();
    if (state !== 'running') return Promise.reject(new InvalidBroadcastError(`the bot is ${state}`));
    if (this.running.has(id)) {
      return Promise.reject(
        new InvalidBroadcastError(`the broadcast "${id}" already runs in this process (wait for its call)`),
      );
    }
    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const done = runBroadcast(this.host, target, body, { ...options, signal });
    const entry = { controller, done };
    this.running.set(id, entry);
    const leave = () => {
      if (this.running.get(id) === entry) this.running.delete(id);
    };
    done.then(leave, leave);
    return done;
  }

  /**
   * Cancels every running broadcast at once (before it returns) and resolves once each call has
   * ended: an aborted broadcast begins no new write to its record, so the bot's store may close meanwhile.
   */
  async stop(): Promise<void> {
    const runs = [...this.running.values()];
    for (const run of runs) run.controller.abort();
    await Promise.allSettled(runs.map((r) => r.done));
  }
}
