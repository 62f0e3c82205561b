import type { App, Logger } from '@boardbot/protocol';
import type { ContextDeps } from './base-context.js';
import type { Clock } from './clock.js';
import type { BotRest } from './ports.js';

/** What the handlers of every feature read from the running bot. */
export interface CoreEnv {
  rest: BotRest;
  /** The app, known once the bot started. */
  app: () => App;
  /** The bot's root logger. */
  log: Logger;
  clock: Clock;
}

/**
 * The dependencies of one handler run's context.
 *
 * @param env - the bot's environment
 * @param log - the run's child logger
 * @param correlationId - the id that follows the run into its REST calls
 * @param signal - aborted when the run times out
 */
export function contextDeps(env: CoreEnv, log: Logger, correlationId: string, signal: AbortSignal): ContextDeps {
  const { rest, clock } = env;
  return { app: env.app(), rest, log, correlationId, signal, now: () => clock.now() };
}
