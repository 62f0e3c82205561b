import type { App, Logger } from '@boardbot/protocol';
import type { ContextDeps } from './base-context.js';
import type { Clock } from './clock.js';
import type { BotRest } from './ports.js';
import type { HandlerRun } from './scope.js';
import type { Services } from './services.js';

/** What the handlers of every feature read from the running bot. */
export interface CoreEnv {
  rest: BotRest;
  /** The app, known once the bot started. */
  app: () => App;
  /** The bot's root logger. */
  log: Logger;
  clock: Clock;
  /** The bot's services, which contexts pass to what `ctx.session()` opens. */
  services: Services;
}

/**
 * The dependencies of one handler run's context.
 *
 * @param env - the bot's environment
 * @param run - the handler run (its logger, correlation id, signal and write keys)
 */
export function contextDeps(env: CoreEnv, run: HandlerRun): ContextDeps {
  const { clock, services } = env;
  return {
    app: env.app(),
    // The run's own facade: its calls carry the run's keys even when made outside its async flow.
    rest: env.rest.scoped(run.calls.handler),
    log: run.log,
    correlationId: run.correlationId,
    run,
    now: () => clock.now(),
    services,
  };
}
