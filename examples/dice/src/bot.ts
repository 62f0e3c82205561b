import { type Bot, type BotOptions, createBot } from '@boardbot/core';
import { Coin } from './coin.js';
import { Dice } from './dice.js';
import { Pick } from './pick.js';
import { Roll } from './roll.js';

export { Coin } from './coin.js';
export { Dice } from './dice.js';
export { Pick } from './pick.js';
export { Roll } from './roll.js';

/**
 * The token of the emulator's seeded `dev-bot` app (`DEFAULT_DEV_TOKEN` of `@boardbot/emulator`;
 * a test checks they agree), so the bot runs against a local emulator with no configuration.
 */
export const DEV_TOKEN = 'dev-token';

/** Every handler class of the dice bot. */
export const DICE_HANDLERS = [Roll, Coin, Pick];

/** Options of {@link createDiceBot}: any `createBot` option but the handlers, and the dice's randomness. */
export interface DiceBotOptions extends Omit<BotOptions, 'handlers' | 'providers'> {
  /** A number in [0, 1) for each roll; give a constant one to load the dice. @defaultValue `Math.random` */
  random?: () => number;
}

/**
 * Creates the dice bot (not started). Other tests and the playground start it this way.
 *
 * @param options - the token and any other `createBot` option
 * @example
 * const bot = createDiceBot({ token: process.env.BOARDBOT_TOKEN ?? DEV_TOKEN });
 * await bot.start();
 */
export function createDiceBot(options: DiceBotOptions): Bot {
  const { random, ...botOptions } = options;
  return createBot({
    ...botOptions,
    handlers: DICE_HANDLERS,
    providers: [{ provide: Dice, useValue: new Dice(random) }],
  });
}
