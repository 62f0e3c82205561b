import type { App, Logger } from '@boardbot/protocol';
import { InvalidBroadcastError } from '../errors.js';
import type { Clock } from '../kernel/clock.js';
import type { BotRest } from '../kernel/ports.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { MetricsSink } from '../telemetry/metrics-sink.js';
import type { BroadcastBody, BroadcastOptions, BroadcastReport, BroadcastTarget } from './broadcast-options.js';
import { type BroadcastDeps, runBroadcast } from './run-broadcast.js';

/** What the broadcasts of a bot run on, read at each call. */
export interface BroadcastHost {
  rest: BotRest;
  log: Logger;
  clock: Clock;
  telemetry: { readonly metrics: MetricsSink | undefined };
  /** The bot's session store, where each broadcast's record is kept. */
  store(): SessionStore;
  /** The app, once the bot started. */
  app(): App;
  /** Where the bot is in its life: a broadcast runs only while it is `running`. */
  state(): string;
}

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
    const done = runBroadcast(this.deps(), target, body, { ...options, signal });
    const entry = { controller, done };
    this.running.set(id, entry);
    const leave = () => {
      if (this.running.get(id) === entry) this.running.delete(id);
    };
    done.then(leave, leave);
    return done;
  }

  private deps(): BroadcastDeps {
    const { rest, log, clock, telemetry } = this.host;
    const host = this.host;
    const store = host.store();
    return {
      rest,
      log,
      store,
      now: () => clock.now(),
      metrics: () => telemetry.metrics,
      botUserId: () => host.app().bot_user_id,
    };
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
