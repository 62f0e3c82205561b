import { Bot } from './bot.js';
import type { BotOptions } from './options.js';

/**
 * Creates a bot from decorated handler classes. Decorators, the derived command set and the
 * providers are checked here, so mistakes fail before any request; `start()` then connects.
 *
 * @param options - token, handlers, providers and the rest of {@link BotOptions}
 * @example
 * const bot = createBot({ token: process.env.BOARDBOT_TOKEN!, handlers: [Roll], providers: [Dice] });
 * await bot.start();
 */
export function createBot(options: BotOptions): Bot {
  return new Bot(options);
}
