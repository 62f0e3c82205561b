import { randomUUID } from 'node:crypto';
import type { CoreEnv } from '../kernel/env.js';
import type { EventMeta } from '../kernel/event.js';
import type { KindDefinition, KindHandler } from '../policies/kind.js';
import type { HandlerTarget, KindRules, Runs, Stage } from '../policies/stages.js';
import type { Tick } from './context.js';
import { describeSchedules, type ScheduleDescription } from './describe-schedules.js';
import { ScheduleContextImpl } from './schedule-context.js';

/** A scheduled method, with the policies that run around it and its schedule's name. */
export interface ScheduleTarget extends HandlerTarget {
  /** The schedule's name (its claims' key). */
  schedule: string;
}

/** How a tick's runs meet the stages: none of the policies (a tick has no person to refuse). */
const TICK_RULES: KindRules<ScheduleContextImpl> = {};

/** A tick's own stage: the method is called with its context. */
export const TICK_STAGES: readonly Stage[] = [
  {
    name: 'tick arguments',
    phase: 'arguments',
    applies: (_target, rules) => rules === TICK_RULES,
    run(pass) {
      pass.args = [pass.ctx];
    },
  },
];

/**
 * Scheduled methods (`@Every`, `@Cron`): no event routes to them; the scheduler runs their ticks
 * through the {@link TickHandler}.
 */
export const SCHEDULE_KIND: KindDefinition<ScheduleDescription> = {
  name: 'schedule',
  decorators: ['@Every', '@Cron'],
  describe: describeSchedules,
  create: () => ({ route: () => undefined, handle: async () => {} }),
};

/** A scheduled method of the schedule kind's handlers, as the scheduler runs it. */
export function scheduledMethod({ target, meta }: KindHandler<ScheduleDescription>) {
  return { schedule: meta, target: { ...target, schedule: meta.name } };
}

/**
 * Runs one tick of a scheduled method as a handler run: under supervision (`handlerTimeoutMs`),
 * tracked so that `stop()` waits for it (or abandons it), and with idempotency keys derived from the
 * tick, as an event's handlers have keys derived from the event.
 */
export class TickHandler {
  /**
   * @param env - the bot's environment
   * @param runner - the bot's runner
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly runner: Runs,
  ) {}

  /** Runs one tick; never rejects. */
  async handle(target: ScheduleTarget, tick: Tick): Promise<void> {
    const at = tick.scheduledAt.toISOString();
    const correlationId = randomUUID();
    const log = this.env.log.child({ schedule: tick.name, tick: at, correlation_id: correlationId });
    // The same tick gives the same keys on any instance and after a restart: its writes go out once.
    const event: EventMeta = {
      id: `tick:${tick.name}@${at}`,
      origin: 'tick',
      keyBasis: `t.${tick.scheduledAt.getTime()}`,
      replayed: tick.missed,
    };
    await this.runner.run({
      rules: TICK_RULES,
      target,
      event,
      log,
      correlationId,
      context: (deps) => new ScheduleContextImpl(deps, tick),
    });
  }
}
