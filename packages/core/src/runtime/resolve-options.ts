import { InvalidConfigError, UnknownBotOptionError } from '../errors.js';
import { healthFromEnv } from '../health/health-env.js';
import type { BoardbotEnvironment } from '../kernel/environment.js';
import { nearestNames } from '../text-commands/nearest-names.js';
import { type ResolvedTextCommandOptions, resolveTextCommandOptions } from '../text-commands/options.js';
import { type BotOptions, DEFAULT_BOT_OPTIONS } from './options.js';

/** {@link BotOptions} with every default filled in, from the options, else the environment. */
export type ResolvedBotOptions = Omit<BotOptions, 'textCommands'> &
  // The option's own type, never undefined: not the default's literal (`typeof DEFAULT_BOT_OPTIONS`
  // would type orderBy as only 'board' and concurrency as only 16).
  Required<Pick<BotOptions, keyof typeof DEFAULT_BOT_OPTIONS>> & {
    /** `textCommands` with its defaults. */
    textCommands: ResolvedTextCommandOptions;
    /** `BOARDBOT_REDIS_URL`, which asks for replicas when `scale` was not given. */
    redisUrl: string | undefined;
  };

/**
 * Every option's name, so that `createBot` refuses one it does not know. Checked against
 * {@link BotOptions} by the compiler: an option added there and not here (or the reverse) fails.
 */
export const BOT_OPTION_NAMES: readonly string[] = Object.keys({
  token: true,
  apiUrl: true,
  handlers: true,
  plugins: true,
  providers: true,
  logger: true,
  textCommands: true,
  commandSync: true,
  concurrency: true,
  orderBy: true,
  position: true,
  scale: true,
  sessions: true,
  cooldowns: true,
  stateDir: true,
  positionFlushMs: true,
  handlerTimeoutMs: true,
  shutdownTimeoutMs: true,
  backfillLimit: true,
  maxPendingEvents: true,
  errorReply: true,
  refusalIntervalMs: true,
  onError: true,
  exhaustedInteraction: true,
  handleSignals: true,
  signals: true,
  exit: true,
  rest: true,
  gateway: true,
  clock: true,
  tracing: true,
  health: true,
} satisfies Record<keyof BotOptions, true>);

/**
 * Checks a bot's options and fills in their defaults, in one step before anything is built: what
 * `createBot` was given wins, then the environment (`BOARDBOT_API_URL`, `BOARDBOT_STATE_DIR`,
 * `BOARDBOT_HEALTH_PORT`, `BOARDBOT_HEALTH_HOST`, `BOARDBOT_REDIS_URL`), then the defaults. Pure: the
 * environment is passed in.
 *
 * @param options - what `createBot` was given
 * @param env - the environment's values (see `readEnvironment`)
 * @throws UnknownBotOptionError for an option it does not know (with the nearest known names)
 * @throws InvalidConfigError naming the option or variable that cannot work
 */
export function resolveBotOptions(options: BotOptions, env: BoardbotEnvironment): ResolvedBotOptions {
  refuseUnknown(options);
  if (typeof options.token !== 'string' || options.token.trim() === '') {
    throw new InvalidConfigError(
      'createBot needs the app token: set BOARDBOT_TOKEN and pass { token: process.env.BOARDBOT_TOKEN }.',
    );
  }
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as BotOptions;
  const resolved = {
    ...DEFAULT_BOT_OPTIONS,
    apiUrl: env.BOARDBOT_API_URL ?? DEFAULT_BOT_OPTIONS.apiUrl,
    stateDir: env.BOARDBOT_STATE_DIR ?? DEFAULT_BOT_OPTIONS.stateDir,
    health: healthFromEnv(env),
    ...defined,
    redisUrl: env.BOARDBOT_REDIS_URL || undefined,
    textCommands: resolveTextCommandOptions(options.textCommands),
  } as ResolvedBotOptions;
  if (!(resolved.concurrency >= 1)) throw new InvalidConfigError('concurrency must be at least 1');
  if (!(Number.isInteger(resolved.maxPendingEvents) && resolved.maxPendingEvents >= 2)) {
    throw new InvalidConfigError('maxPendingEvents must be a whole number, at least 2 (the default is 1000)');
  }
  if (!['board', 'user', 'none'].includes(resolved.orderBy)) {
    throw new InvalidConfigError(`orderBy must be 'board', 'user' or 'none', got ${String(resolved.orderBy)}`);
  }
  const interval = resolved.refusalIntervalMs;
  if (typeof interval !== 'number' || !Number.isFinite(interval) || interval < 0) {
    throw new InvalidConfigError(
      `refusalIntervalMs must be a number of milliseconds ≥ 0, such as 3000 (got ${JSON.stringify(interval)})`,
    );
  }
  if (resolved.exhaustedInteraction !== 'error' && resolved.exhaustedInteraction !== 'send') {
    throw new InvalidConfigError("exhaustedInteraction must be 'error' (the default) or 'send'");
  }
  return resolved;
}

// TypeScript's excess property check sees only an object literal written in the call: options built
// in a variable, a spread or JavaScript reach here with any key, and a misspelt one would be ignored.
function refuseUnknown(options: BotOptions): void {
  const known = new Set(BOT_OPTION_NAMES);
  const unknown = Object.keys(options)
    .filter((name) => !known.has(name))
    .map((name) => ({ name, nearest: nearestNames(name, BOT_OPTION_NAMES) }));
  if (unknown.length > 0) throw new UnknownBotOptionError(unknown);
}
