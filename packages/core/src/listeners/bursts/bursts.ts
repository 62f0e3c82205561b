import type { CoreEnv } from '../../kernel/env.js';
import type { EventMeta } from '../../kernel/event.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import type { MessageTarget } from '../target.js';
import { BurstKeeper, type BurstRun, type HeldMessage } from './burst-keeper.js';

/** Where a burst's run takes a worker, and who counts what the policies did. */
export interface BurstWorkers {
  /**
   * Runs a task as a worker of the bot's queue, outside any ordering slot (the held messages left
   * theirs). @defaultValue runs it at once
   */
  schedule?: ((task: () => Promise<void>) => Promise<void>) | undefined;
  /** The bot's telemetry, whose metrics count held bursts, skipped messages and cancelled runs. */
  telemetry?: Telemetry | undefined;
}

/** The run of a message no burst holds: its own event, nothing skipped. */
export function unheld(meta: EventMeta): BurstRun {
  return { meta, skipped: [], skippedCount: 0, opened: () => {} };
}

/** The burst keepers of a bot's `@OnMessage` listeners that declare a burst policy. */
export class Bursts {
  private readonly keepers = new Map<MessageTarget, BurstKeeper>();

  /**
   * @param targets - the `message.create` listeners
   * @param env - the bot's clock and logger
   * @param workers - the queue's workers and the metrics
   */
  constructor(targets: readonly MessageTarget[], env: CoreEnv, workers: BurstWorkers) {
    const schedule = workers.schedule ?? ((task) => task());
    for (const target of targets) {
      const policy = target.listener.burst;
      if (!policy) continue;
      const log = env.log.child({ handler: target.label, burst: policy.mode });
      this.keepers.set(
        target,
        new BurstKeeper(policy, {
          clock: env.clock,
          log,
          schedule,
          count: (what, n) => workers.telemetry?.metrics?.burst?.(target.label, what, n),
        }),
      );
    }
  }

  /**
   * Hands a message to its listener's burst policy, if it has one: the message is held until the run
   * that covers it ended, and its event's outcome waits for that (`DispatchOutcome.held`), while its
   * dispatch returns at once and frees its board's ordering slot.
   * @param target - the listener
   * @param held - the message, its event and how to run the listener
   * @returns undefined when the listener takes each message in turn (`'queue'`)
   */
  take(target: MessageTarget, held: HeldMessage): Promise<void> | undefined {
    const keeper = this.keepers.get(target);
    if (!keeper) return undefined;
    const done = keeper.take(held);
    const outcome = held.meta.outcome;
    if (!outcome) return done;
    if (outcome.held) outcome.held.push(done);
    else outcome.held = [done];
    return Promise.resolve();
  }

  /** Runs no more bursts (at stop): what is held stays held, before the resume point. */
  close(): void {
    for (const keeper of this.keepers.values()) keeper.close();
  }
}
