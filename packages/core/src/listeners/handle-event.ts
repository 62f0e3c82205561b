import { randomUUID } from 'node:crypto';
import type { GatewayDispatch } from '@boardbot/gateway';
import { type CoreEnv, contextDeps } from '../kernel/env.js';
import { HandlerRun } from '../kernel/scope.js';
import type { EventMeta, PolicedMethod, Policies } from '../policies/pipeline.js';
import { EventContextImpl } from './event-context.js';

/** `@OnEvent` listeners, by event name. */
export type EventTable = ReadonlyMap<string, readonly PolicedMethod[]>;

/**
 * Handles any gateway event for its `@OnEvent` listeners: each gets the payload and a context,
 * under supervision (events have no person to answer, so no guards or cooldowns apply).
 */
export class EventHandler {
  /**
   * @param env - the bot's environment
   * @param policies - the policy pipeline
   * @param listeners - the event listener table
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly policies: Policies,
    private readonly listeners: EventTable,
  ) {}

  /** Whether an `@OnEvent` listener listens to events named `name`. */
  listens(name: string): boolean {
    return this.listeners.has(name);
  }

  /** Handles one event; never rejects. */
  async handle(event: GatewayDispatch, meta: EventMeta): Promise<void> {
    const targets = this.listeners.get(event.name);
    if (!targets) return;
    const correlationId = randomUUID();
    const log = this.env.log.child({ event_id: event.id, event: event.name, correlation_id: correlationId });
    await Promise.all(
      targets.map((target) => {
        const run = new HandlerRun({
          eventId: event.id,
          keyBasis: meta.keyBasis,
          handler: target.label,
          correlationId,
          log,
          replayed: meta.replayed,
          trace: meta.trace,
          outcome: meta.outcome,
        });
        const ctx = new EventContextImpl(contextDeps(this.env, run), { name: event.name, id: event.id });
        return this.policies.run(target, run, ctx, undefined, async () => {
          await (target.instance[target.method] as Function).call(target.instance, event.data, ctx);
        });
      }),
    );
  }
}
