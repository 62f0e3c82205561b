import { RunCancelledError } from '../../errors.js';
import type { EventMeta } from '../../kernel/event.js';
import type { EndingRule } from '../../policies/endings.js';
import type { KindHost } from '../../policies/kind.js';
import type { MessageTarget } from '../target.js';
import { BurstKeeper, type BurstRun, type HeldMessage } from './burst-keeper.js';

/** A burst's newer message took over (burst `'latest'`): nothing failed, nothing to apologise for. */
export const BURST_CANCELLED: EndingRule = (error) =>
  error instanceof RunCancelledError
    ? {
        outcome: 'cancelled',
        log: ({ ctx, target }) =>
          ctx.log.info({ handler: target.label }, 'run cancelled by a newer message of its burst'),
      }
    : undefined;

/** The run of a message no burst holds: its own event, nothing skipped. */
export function unheld(meta: EventMeta): BurstRun {
  return { meta, skipped: [], skippedCount: 0, opened: () => {} };
}

/** The burst keepers of a bot's `@OnMessage` listeners that declare a burst policy. */
export class Bursts {
  private readonly keepers = new Map<MessageTarget, BurstKeeper>();

  /**
   * @param targets - the `message.create` listeners
   * @param host - the bot's clock and logger, the queue's workers (outside any ordering slot) and the metrics
   */
  constructor(targets: readonly MessageTarget[], host: Pick<KindHost, 'env' | 'schedule' | 'metrics'>) {
    const { env, schedule } = host;
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
          count: (what, n) => host.metrics()?.burst?.(target.label, what, n),
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
