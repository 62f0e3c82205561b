import { randomUUID } from 'node:crypto';
import { type CoreEnv, contextDeps } from '../kernel/env.js';
import { HandlerRun } from '../kernel/scope.js';
import type { PolicedMethod, Policies } from '../policies/pipeline.js';
import type { Tick } from './context.js';
import { ScheduleContextImpl } from './schedule-context.js';

/** A scheduled method, with the policies that run around it and its schedule's name. */
export interface ScheduleTarget extends PolicedMethod {
  /** The schedule's name (its claims' key). */
  schedule: string;
}

/**
 * Runs one tick of a scheduled method as a handler run: under supervision (`handlerTimeoutMs`),
 * tracked so that `stop()` waits for it (or abandons it), and with idempotency keys derived from the
 * tick, as an event's handlers have keys derived from the event (no guards or cooldowns: a tick
 * has no person to refuse).
 */
export class TickHandler {
  /**
   * @param env - the bot's environment
   * @param policies - the policy pipeline
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly policies: Policies,
  ) {}

  /** Runs one tick; never rejects. */
  async handle(target: ScheduleTarget, tick: Tick): Promise<void> {
    const at = tick.scheduledAt.toISOString();
    const correlationId = randomUUID();
    const log = this.env.log.child({ schedule: tick.name, tick: at, correlation_id: correlationId });
    const run = new HandlerRun({
      eventId: `tick:${tick.name}@${at}`,
      // The same tick gives the same keys on any instance and after a restart: its writes go out once.
      keyBasis: `t.${tick.scheduledAt.getTime()}`,
      handler: target.label,
      correlationId,
      log,
      replayed: tick.missed,
    });
    const ctx = new ScheduleContextImpl(contextDeps(this.env, run), tick);
    await this.policies.run(target, run, ctx, undefined, async () => {
      await (target.instance[target.method] as (ctx: ScheduleContextImpl) => unknown).call(target.instance, ctx);
    });
  }
}
