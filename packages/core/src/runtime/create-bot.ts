import { Bot } from './bot.js';
import { type BotDefinition, defineBot, isBotDefinition } from './define-bot.js';
import type { BotOptions } from './options.js';

/**
 * Creates a bot from its definition (`defineBot`), with the options only the running bot knows: the
 * token, and whatever a test or the CLI gives (an emulator's URL, a fake provider, a replica
 * adapter). Options the definition checks (handlers, providers, plugins...) make it checked again;
 * a provider given here replaces the definition's for the same class. `start()` then connects.
 *
 * @param definition - the bot's definition
 * @param options - `token` and any other option of {@link BotOptions}
 * @example
 * const bot = createBot(definition, { token: process.env.BOARDBOT_TOKEN ?? '' });
 * await bot.start();
 */
export function createBot(definition: BotDefinition, options?: Partial<BotOptions>): Bot;
/**
 * Creates a bot from decorated handler classes: its definition and the bot in one step. Decorators,
 * the derived command set and the providers are checked here, so mistakes fail before any request;
 * `start()` then connects.
 *
 * @param options - token, handlers, providers and the rest of {@link BotOptions}
 * @example
 * const bot = createBot({ token: process.env.BOARDBOT_TOKEN!, handlers: [Roll], providers: [Dice] });
 * await bot.start();
 */
export function createBot(options: BotOptions): Bot;
export function createBot(input: BotDefinition | BotOptions, options: Partial<BotOptions> = {}): Bot {
  return isBotDefinition(input) ? new Bot(input, options) : new Bot(defineBot(input));
}
