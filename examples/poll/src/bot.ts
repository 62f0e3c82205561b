import { type Bot, type BotOptions, createBot } from '@boardbot/core';
import { PollBook } from './poll-book.js';
import { PollCommand } from './poll-command.js';
import { VoteListener } from './vote-listener.js';

export { PollBook } from './poll-book.js';
export { PollCommand } from './poll-command.js';
export { VoteListener } from './vote-listener.js';

/** The token of the emulator's seeded `dev-bot` app, for zero configuration against a local emulator. */
export const DEV_TOKEN = 'dev-token';

/** Every handler class of the poll bot. */
export const POLL_HANDLERS = [PollCommand, VoteListener];

/**
 * Creates the poll bot (not started).
 * @param options - the token and any other `createBot` option but the handlers
 */
export function createPollBot(options: Omit<BotOptions, 'handlers' | 'providers'>): Bot {
  return createBot({ ...options, handlers: POLL_HANDLERS, providers: [PollBook] });
}
