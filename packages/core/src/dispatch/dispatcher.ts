import type { GatewayDispatch } from '@boardbot/gateway';
import type { Logger } from '@boardbot/protocol';
import type { Context } from '@opentelemetry/api';
import type { ExhaustedInteraction } from '../commands/context.js';
import { InteractionHandler } from '../commands/handle-interaction.js';
import type { CoreEnv } from '../kernel/env.js';
import type { HandlerRun } from '../kernel/scope.js';
import { EventHandler } from '../listeners/handle-event.js';
import { MessageHandler } from '../listeners/handle-message.js';
import type { CooldownStore } from '../policies/cooldown-store.js';
import { Cooldowns } from '../policies/cooldowns.js';
import type { Middleware } from '../policies/middleware.js';
import type { ErrorHook } from '../policies/on-error.js';
import { type EventMeta, Policies } from '../policies/pipeline.js';
import type { Tick } from '../schedules/context.js';
import { type ScheduleTarget, TickHandler } from '../schedules/handle-tick.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { keyBasis } from './key-basis.js';
import { type DispatchOutcome, dispatchOutcome } from './outcome.js';
import type { Routes } from './routes.js';

/**
 * A gateway event as the runtime dispatches it: `@boardbot/gateway`'s typed dispatch, unchanged, so a
 * payload checked at the gateway stays typed down to the handler. Narrow on `unknown`, then `name`.
 */
export type BotEvent = GatewayDispatch;

/** What the dispatcher needs from the bot. */
export interface DispatcherDeps extends CoreEnv {
  routes: Routes;
  middleware: readonly Middleware[];
  log: Logger;
  handlerTimeoutMs: number;
  /** Told to the person when a handler fails; false: nothing is said. */
  errorReply: string | false;
  onError: ErrorHook | undefined;
  /** What a sixth answer to an interaction does. */
  exhaustedInteraction: ExhaustedInteraction;
  /** Traces and counts the handler runs. */
  telemetry: Telemetry;
  /** Where cooldowns are counted. @defaultValue in this process */
  cooldowns?: CooldownStore | undefined;
}

/**
 * Runs the handlers of one event: hands it to each feature that handles its kind (commands,
 * message listeners, event listeners), under one policy pipeline.
 */
export class Dispatcher {
  private readonly interactions: InteractionHandler;
  private readonly messages: MessageHandler;
  private readonly events: EventHandler;
  private readonly ticks: TickHandler;
  private readonly policies: Policies;

  /** @param deps - routes, middleware, I/O and policy */
  constructor(deps: DispatcherDeps) {
    const policies = new Policies({
      middleware: deps.middleware,
      cooldowns: deps.cooldowns ?? new Cooldowns(() => deps.clock.now()),
      clock: deps.clock,
      handlerTimeoutMs: deps.handlerTimeoutMs,
      errorReply: deps.errorReply,
      onError: deps.onError,
      telemetry: deps.telemetry,
    });
    this.policies = policies;
    this.interactions = new InteractionHandler(deps, policies, deps.routes.commands, deps.exhaustedInteraction);
    this.messages = new MessageHandler(deps, policies, deps.routes.messages);
    this.events = new EventHandler(deps, policies, deps.routes.events);
    this.ticks = new TickHandler(deps, policies);
  }

  /**
   * Abandons every handler still running (at shutdown), see `Policies.abandonRunning`.
   * @param shutdownTimeoutMs - the wait that passed, for the messages
   * @returns the runs abandoned
   */
  abandonRunning(shutdownTimeoutMs: number): HandlerRun[] {
    return this.policies.abandonRunning(shutdownTimeoutMs);
  }

  /** Handler runs holding a worker right now. */
  get inFlight(): number {
    return this.policies.inFlight;
  }

  /**
   * Runs one tick of a scheduled method (claimed by the scheduler); never rejects.
   * @param target - the scheduled method
   * @param tick - the tick
   */
  tick(target: ScheduleTarget, tick: Tick): Promise<void> {
    return this.ticks.handle(target, tick);
  }

  /**
   * Whether any handler may run for the event: an invocation always gets one (an unknown command is
   * answered), a message one only with a listener that may see it, any event with an `@OnEvent`
   * listener for its name.
   * @param event - the event
   */
  handles(event: BotEvent): boolean {
    if (this.events.listens(event.name)) return true;
    if (event.unknown) return false;
    switch (event.name) {
      case 'interaction.create':
        return true;
      case 'message.create':
      case 'message.edit':
      case 'message.delete':
        return this.messages.sees(event.name, event.data.message);
      default:
        return false;
    }
  }

  /**
   * Handles one event; resolves when all its handlers ended or timed out; never rejects.
   *
   * @param event - the event
   * @param replayed - whether an earlier process may have handled it already (after a restart)
   * @param trace - the event's trace context (its span, from `Telemetry.receive`), if traced
   * @returns how its handlers ended (replicas deliver a failed event again)
   */
  dispatch(event: BotEvent, replayed = false, trace?: Context): Promise<DispatchOutcome> {
    return dispatchOutcome((outcome) =>
      this.run(event, { id: event.id, keyBasis: keyBasis(event), replayed, trace, outcome }),
    );
  }

  private async run(event: BotEvent, meta: EventMeta): Promise<void> {
    const work = [this.events.handle(event, meta)];
    if (!event.unknown) {
      switch (event.name) {
        case 'interaction.create':
          work.push(this.interactions.handle(meta, event.data.interaction));
          break;
        case 'message.create':
        case 'message.edit':
        case 'message.delete':
          work.push(this.messages.handle(meta, event.name, event.data.message));
          break;
      }
    }
    await Promise.all(work);
  }
}
