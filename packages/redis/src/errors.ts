import type { BoardbotErrorOptions, ErrorArgs } from '@boardbot/protocol';
import { BoardbotError, createErrorFactory } from '@boardbot/protocol/runtime';

// The root every boardbot error extends, for `instanceof` and `isBoardbotError` without importing protocol.
export { BoardbotError, isBoardbotError } from '@boardbot/protocol/runtime';

// Every error of `@boardbot/redis`, declared once. Messages name the Redis by its redacted URL (no
// password) and a cause by its code only: a client's message may quote the URL with its password.
const REDIS_ERRORS = createErrorFactory({
  BOARDBOT_REDIS_INVALID_OPTION: {
    message: (option: string, problem: string) => `redis(): ${option} ${problem}.`,
  },
  BOARDBOT_REDIS_UNAVAILABLE: {
    message: (where: string, code: string) =>
      `Redis at ${where} cannot be reached (${code}): start it, or point BOARDBOT_REDIS_URL (or redis({ url })) at ` +
      'a running Redis 6.2 or later.',
  },
  BOARDBOT_REDIS_NOT_CONNECTED: {
    message: (what: string) => `${what} was used before the bot started (the replica connects in bot.start()).`,
  },
});

/**
 * Stable codes of the errors `@boardbot/redis` throws. Match on `error.code`, never on the message.
 */
export const REDIS_ERROR_CODES = REDIS_ERRORS.codes;

/** A stable error code of `@boardbot/redis`. */
export type RedisErrorCode = (typeof REDIS_ERROR_CODES)[number];

/** Base of every error `@boardbot/redis` throws; `code` is stable. */
export abstract class BoardbotRedisError extends BoardbotError {
  declare readonly code: RedisErrorCode;

  /** Takes the code, the arguments of its message template, and the underlying cause if any. */
  constructor(...[code, args, options]: ErrorArgs<typeof REDIS_ERRORS, [options?: BoardbotErrorOptions | undefined]>) {
    super(code, REDIS_ERRORS.message(code, args), options);
  }
}

/** An option of `redis()` cannot work (a missing URL, a partition count below 1...). */
export class RedisOptionError extends BoardbotRedisError {
  /**
   * @param option - the option, e.g. `partitions`
   * @param problem - what is wrong, e.g. `must be an integer from 1 to 1024`
   */
  constructor(option: string, problem: string) {
    super('BOARDBOT_REDIS_INVALID_OPTION', [option, problem]);
  }
}

/** The replica could not reach Redis when the bot started. */
export class RedisUnavailableError extends BoardbotRedisError {
  /**
   * @param where - the Redis URL without its password
   * @param cause - the client's error (its code is shown, never its message)
   */
  constructor(where: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    super('BOARDBOT_REDIS_UNAVAILABLE', [where, typeof code === 'string' ? code : 'no answer'], { cause });
  }
}

/** A part of the adapter (its rate limit, its cooldowns) was used before `bot.start()` connected it. */
export class RedisNotConnectedError extends BoardbotRedisError {
  /** @param what - the part, e.g. `the shared rate limit` */
  constructor(what: string) {
    super('BOARDBOT_REDIS_NOT_CONNECTED', [what]);
  }
}
