import { type Bot, type BotOptions, createBot } from '@boardbot/core';
import { type StandupOptions, standup } from './plugin.js';

export { type StandupOptions, standup } from './plugin.js';

/** The token of the emulator's seeded `dev-bot` app, for zero configuration against a local emulator. */
export const DEV_TOKEN = 'dev-token';

/**
 * Creates the standup bot (not started): a bot made of the standup plugin alone.
 * @param options - the token and any other `createBot` option but the handlers
 * @param standupOptions - the plugin's options
 */
export function createStandupBot(
  options: Omit<BotOptions, 'handlers' | 'plugins'>,
  standupOptions: StandupOptions = {},
): Bot {
  return createBot({ ...options, handlers: [], plugins: [standup(standupOptions)] });
}
