import type { App, Logger } from '@boardbot/protocol';
import type { Clock } from './clock.js';
import type { BotRest } from './ports.js';
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
