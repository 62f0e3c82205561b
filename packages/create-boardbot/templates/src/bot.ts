import { Greet } from './commands/greet.js';
import { Ping } from './listeners/ping.js';

/**
 * Every handler class of the bot. `main.ts` starts them, the tests run them, and
 * `boardbot commands` reads the slash commands from here (built to dist/bot.js).
 */
export const handlers = [Greet, Ping];
