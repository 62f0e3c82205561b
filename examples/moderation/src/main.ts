import { createModerationBot, DEV_TOKEN } from './bot.js';

// Zero configuration against a local emulator (`npx boardbot emulator`); set BOARDBOT_TOKEN and
// BOARDBOT_API_URL for a real platform.
const bot = createModerationBot({ token: process.env.BOARDBOT_TOKEN ?? DEV_TOKEN });
await bot.start();
