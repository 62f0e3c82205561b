import type { Context } from '@opentelemetry/api';
import type { ExhaustedInteraction } from '../commands/context.js';
import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent } from '../kernel/event.js';
import type { DispatchOutcome } from '../kernel/outcome.js';
import { type ChainDeps, PolicyChain } from '../policies/chain.js';
import type { CooldownStore } from '../policies/cooldown-store.js';
import { Cooldowns } from '../policies/cooldowns.js';
import { TickHandler } from '../schedules/handle-tick.js';
import { DEFAULT_TEXT_COMMAND_OPTIONS, type ResolvedTextCommandOptions } from '../text-commands/options.js';
import { keyBasis } from './key-basis.js';
import { type KeyedQueue, queueTask } from './keyed-queue.js';
import { EVENT_KINDS, type EventKind, type KindFactory } from './kinds.js';
import type { Routes } from './routes.js';

/** What the dispatcher needs from the bot: the chain's policy, and what the kinds of handler read. */
export interface DispatcherDeps extends CoreEnv, Omit<ChainDeps, 'env' | 'cooldowns'> {
  routes: Routes;
  /** What a sixth answer to an interaction does. */
  exhaustedInteraction: ExhaustedInteraction;
  /** Where cooldowns are counted. @defaultValue in this process */
  cooldowns?: CooldownStore | undefined;
  /** How commands are invoked as text. @defaultValue {@link DEFAULT_TEXT_COMMAND_OPTIONS} */
  textCommands?: ResolvedTextCommandOptions | undefined;
  /**
   * The bot's queue: a burst's run takes one of its workers, outside any ordering slot.
   * @defaultValue runs at once
   */
  queue?: KeyedQueue | undefined;
  /** The kinds of handler events go to. @defaultValue {@link EVENT_KINDS} */
  kinds?: readonly KindFactory[] | undefined;
}

/**
 * Runs the handlers of one event: hands it to each kind of handler (event listeners, commands, text
 * commands, message listeners), each of which runs its handlers through the one policy chain.
 */
export class Dispatcher {
  /** Runs the scheduled methods' ticks through the same chain (the scheduler calls it). */
  readonly ticks: TickHandler;
  /**
   * The one policy chain every run goes through: what is running, what released its slot
   * (`settled`), and the stop's interruption and abandonment.
   */
  readonly chain: PolicyChain;
  private readonly kinds: readonly EventKind[];

  /** @param deps - routes, middleware, I/O and policy */
  constructor(deps: DispatcherDeps) {
    const cooldowns = deps.cooldowns ?? new Cooldowns(() => deps.clock.now());
    const chain = new PolicyChain({ ...deps, env: deps, cooldowns });
    this.chain = chain;
    const { queue } = deps;
    const schedule = queue && ((task: () => Promise<void>) => queueTask(queue, task));
    const textCommands = deps.textCommands ?? DEFAULT_TEXT_COMMAND_OPTIONS;
    const parts = { ...deps, env: deps, chain, textCommands, workers: { schedule, telemetry: deps.telemetry } };
    this.kinds = (deps.kinds ?? EVENT_KINDS).map((kind) => kind(parts));
    this.ticks = new TickHandler(deps, chain);
  }

  /** Runs nothing more of what the handlers hold (at stop: held bursts stay before the resume point). */
  close(): void {
    for (const kind of this.kinds) kind.close?.();
  }

  /**
   * Whether any handler may run for the event: an invocation always gets one (an unknown command is
   * answered), a message one only with a listener that may see it, any event with an `@OnEvent`
   * listener for its name.
   * @param event - the event
   */
  handles(event: BotEvent): boolean {
    return this.kinds.some((kind) => kind.handles(event));
  }

  /**
   * Handles one event; resolves when all its handlers ended or timed out; never rejects.
   *
   * @param event - the event
   * @param replayed - whether an earlier process may have handled it already (after a restart)
   * @param trace - the event's trace context (its span, from `Telemetry.receive`), if traced
   * @param owned - whether this process still owns the event (see `DispatchOutcome.owned`)
   * @returns how its handlers ended (replicas deliver a failed event again)
   */
  async dispatch(event: BotEvent, replayed = false, trace?: Context, owned?: () => boolean): Promise<DispatchOutcome> {
    // The outcome travels with the event to each of its runs, which the chain marks when one ends
    // badly: no async context of its own, which would cost every promise of the dispatch a second
    // propagation. A rejection counts as a failure.
    const outcome: DispatchOutcome = { failed: false, abandoned: false };
    if (owned) outcome.owned = owned;
    const meta = { id: event.id, keyBasis: keyBasis(event), replayed, trace, outcome };
    // Only the kinds that have a handler for it, and the one directly (the usual case): each kind's
    // `handle` and a `Promise.all` over four of them cost every event ten promises otherwise.
    const kinds = this.kinds.filter((kind) => kind.handles(event));
    try {
      if (kinds.length === 1) await (kinds[0] as EventKind).handle(event, meta);
      else if (kinds.length > 1) await Promise.all(kinds.map((kind) => kind.handle(event, meta)));
    } catch {
      outcome.failed = true;
    }
    return outcome;
  }
}
