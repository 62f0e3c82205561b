import { randomUUID } from 'node:crypto';
import type { CoreEnv } from '../kernel/env.js';
import type { PolicyChain } from '../policies/chain.js';
import type { HandlerSteps, HandlerTarget } from '../policies/steps.js';
import type { Tick } from './context.js';
import { ScheduleContextImpl } from './schedule-context.js';

/** A scheduled method, with the policies that run around it and its schedule's name. */
export interface ScheduleTarget extends HandlerTarget {
  /** The schedule's name (its claims' key). */
  schedule: string;
}

/** A tick's steps: the handler alone (no guards or cooldowns: a tick has no person to refuse). */
const steps: HandlerSteps<ScheduleContextImpl, undefined> = {
  arguments: (ctx) => [ctx],
};

/**
 * Runs one tick of a scheduled method as a handler run: under supervision (`handlerTimeoutMs`),
 * tracked so that `stop()` waits for it (or abandons it), and with idempotency keys derived from the
 * tick, as an event's handlers have keys derived from the event.
 */
export class TickHandler {
  /**
   * @param env - the bot's environment
   * @param chain - the policy chain
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly chain: PolicyChain,
  ) {}

  /** Runs one tick; never rejects. */
  async handle(target: ScheduleTarget, tick: Tick): Promise<void> {
    const at = tick.scheduledAt.toISOString();
    const correlationId = randomUUID();
    const log = this.env.log.child({ schedule: tick.name, tick: at, correlation_id: correlationId });
    // The same tick gives the same keys on any instance and after a restart: its writes go out once.
    const event = { id: `tick:${tick.name}@${at}`, keyBasis: `t.${tick.scheduledAt.getTime()}`, replayed: tick.missed };
    const context = (deps: ConstructorParameters<typeof ScheduleContextImpl>[0]) => new ScheduleContextImpl(deps, tick);
    await this.chain.run(steps, target, event, { log, correlationId }, context, undefined);
  }
}
