import { type Bot, type BotOptions, createBot } from '@boardbot/core';
import { FloodTracker } from './flood-tracker.js';
import { ModCommand } from './mod-command.js';
import { ModerationClock } from './moderation-clock.js';
import { type ModerationRules, Rules } from './rules.js';
import { Strikes } from './strikes.js';
import { Warnings } from './warnings.js';
import { Watchdog } from './watchdog.js';

export { BreaksLinkRules } from './breaks-link-rules.js';
export { ModCommand } from './mod-command.js';
export { ModerationClock } from './moderation-clock.js';
export { DEFAULT_MODERATION_RULES, type ModerationRules, Rules } from './rules.js';
export { Watchdog } from './watchdog.js';

/** The token of the emulator's seeded `dev-bot` app, for zero configuration against a local emulator. */
export const DEV_TOKEN = 'dev-token';

/** Every handler class of the moderation bot. */
export const MODERATION_HANDLERS = [Watchdog, ModCommand];

/** Options of {@link createModerationBot}: any `createBot` option but the handlers, and the rules. */
export interface ModerationBotOptions extends Omit<BotOptions, 'handlers' | 'providers'> {
  /** Rules that differ from the defaults (a short `warningTtlMs` in tests, allowed hosts...). */
  rules?: Partial<ModerationRules>;
}

/**
 * Creates the moderation bot (not started). A `clock` option drives both the runtime (cooldowns)
 * and the moderator (flood windows, deleting warnings), so a test can decide when time passes.
 *
 * @param options - the token, rules, and any other `createBot` option
 */
export function createModerationBot(options: ModerationBotOptions): Bot {
  const { rules, ...botOptions } = options;
  return createBot({
    ...botOptions,
    handlers: MODERATION_HANDLERS,
    providers: [
      { provide: Rules, useValue: new Rules(rules) },
      { provide: ModerationClock, useValue: options.clock ?? new ModerationClock() },
      Strikes,
      FloodTracker,
      Warnings,
    ],
  });
}
