import { defineBot } from '@boardbot/core';
import { Greet } from './commands/greet.js';
import { Ping } from './listeners/ping.js';

/**
 * The bot: its handler classes (add yours here) and its options. `npm run dev` and `npm start` start
 * it, the tests run it, and `boardbot commands` reads its slash commands (built to dist/bot.js).
 */
export default defineBot({ handlers: [Greet, Ping] });
