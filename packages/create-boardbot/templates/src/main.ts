import { createBot } from '@boardbot/core';
import { handlers } from './bot.js';

// `npm run dev` (boardbot dev) runs this file with BOARDBOT_TOKEN and BOARDBOT_API_URL pointing at a
// local emulator; `npm start` (boardbot start) takes them from .env or the environment.
const bot = createBot({ token: process.env.BOARDBOT_TOKEN ?? '', handlers });
await bot.start();
