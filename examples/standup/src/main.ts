import { createStandupBot, DEV_TOKEN } from './bot.js';

// Zero configuration against a local emulator (`npx boardbot emulator`); set BOARDBOT_TOKEN and
// BOARDBOT_API_URL for a real platform. The reminder claims and the rounds live in the state
// directory (BOARDBOT_STATE_DIR, else .boardbot): keep it across restarts.
const bot = createStandupBot({ token: process.env.BOARDBOT_TOKEN ?? DEV_TOKEN });
await bot.start();
