import { createBot } from '@boardbot/core';
import bot from './bot.js';

// `npm run dev` and `npm start` start the bot from its definition in bot.ts and give it its token and
// URL; this file runs it alone (`node dist/main.js`), with BOARDBOT_TOKEN and BOARDBOT_API_URL set.
await createBot(bot, { token: process.env.BOARDBOT_TOKEN ?? '' }).start();
