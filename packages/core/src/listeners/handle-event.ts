import { randomUUID } from 'node:crypto';
import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import type { PolicyChain } from '../policies/chain.js';
import type { HandlerSteps, HandlerTarget } from '../policies/steps.js';
import { EventContextImpl } from './event-context.js';

/** `@OnEvent` listeners, by event name. */
export type EventTable = ReadonlyMap<string, readonly HandlerTarget[]>;

/** An event listener's steps: the handler alone (events have no person to answer, so no guards or cooldowns apply). */
const steps: HandlerSteps<EventContextImpl, unknown> = {
  arguments: (ctx, data) => [data, ctx],
};

/** Handles any gateway event for its `@OnEvent` listeners: each gets the payload and a context. */
export class EventHandler {
  /**
   * @param env - the bot's environment
   * @param chain - the policy chain
   * @param listeners - the event listener table
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly chain: PolicyChain,
    private readonly listeners: EventTable,
  ) {}

  /** Whether an `@OnEvent` listener listens to events of this name. */
  handles(event: BotEvent): boolean {
    return this.listeners.has(event.name);
  }

  /** Handles one event; never rejects. */
  async handle(event: BotEvent, meta: EventMeta): Promise<void> {
    const targets = this.listeners.get(event.name);
    if (!targets) return;
    const correlationId = randomUUID();
    const log = this.env.log.child({ event_id: event.id, event: event.name, correlation_id: correlationId });
    const context = { name: event.name, id: event.id };
    await Promise.all(
      targets.map((target) =>
        this.chain.run(
          steps,
          target,
          meta,
          { log, correlationId },
          (deps) => new EventContextImpl(deps, context),
          event.data,
        ),
      ),
    );
  }
}
