import { createDiceBot, DEV_TOKEN } from './bot.js';

// Zero configuration against a local emulator (`npx boardbot emulator`): BOARDBOT_API_URL defaults
// to it, and its seeded app's token is the development token. Set both for a real platform.
const bot = createDiceBot({ token: process.env.BOARDBOT_TOKEN ?? DEV_TOKEN });
await bot.start();
