// The root of every error boardbot throws. This module runs in browsers too (the playground bundles
// the control client's errors), so it imports nothing.

/**
 * The brand every boardbot error carries. A registered symbol (`Symbol.for`) is the same in every
 * copy of this module, so two installed versions of a package, a bundled copy, or `create-boardbot`'s
 * own small root still recognise each other's errors.
 */
export const BOARDBOT_ERROR_BRAND: unique symbol = Symbol.for('boardbot.error');

/** What every boardbot error may carry beside its code and message. */
export interface BoardbotErrorOptions {
  /** The underlying error, kept as the standard `cause`. */
  cause?: unknown;
}

/**
 * The root of every error a boardbot package throws: a stable `code` (`BOARDBOT_…`) to match on, and a
 * message that says what happened and, where it can, how to fix it. Errors that carry one of the
 * platform's wire codes (`unknown_board`, `rate_limited`...) have it as `apiCode`.
 *
 * `error instanceof BoardbotError` also holds for an error of another copy of boardbot (it checks the
 * brand, see {@link isBoardbotError}); `instanceof` on any subclass is the usual prototype check.
 *
 * @example
 * try {
 *   await bot.start();
 * } catch (error) {
 *   if (error instanceof BoardbotError && error.code === 'BOARDBOT_COMMANDS_DRIFT') process.exitCode = 3;
 *   else throw error;
 * }
 */
export abstract class BoardbotError extends Error {
  /** Stable machine-readable code, e.g. `BOARDBOT_RATE_LIMITED`; codes never change, messages may. */
  readonly code: string;

  /**
   * @param code - the stable code
   * @param message - what happened and, where possible, how to fix it
   * @param options - the underlying cause, if any
   */
  constructor(code: string, message: string, options: BoardbotErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }

  /**
   * Whether `value` is an error of this class. On `BoardbotError` itself this is the brand check of
   * {@link isBoardbotError}, so that errors of a duplicated copy of boardbot count too; on every
   * subclass it is the ordinary prototype check.
   *
   * @param value - anything
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` asked about, maybe a subclass
    return this === BoardbotError ? isBoardbotError(value) : Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

// On the prototype, not the instance: the brand stays out of `{ ...error }` and `JSON.stringify`.
Object.defineProperty(BoardbotError.prototype, BOARDBOT_ERROR_BRAND, { value: true });

/**
 * Whether `value` is an error thrown by boardbot, from any copy of any of its packages (the check is
 * the brand, not the prototype chain).
 *
 * @param value - anything, typically what a `catch` caught
 * @example
 * if (isBoardbotError(error)) console.error(`${error.code}: ${error.message}`);
 */
export function isBoardbotError(value: unknown): value is BoardbotError {
  if (typeof value !== 'object' || value === null) return false;
  const branded = value as { [BOARDBOT_ERROR_BRAND]?: unknown; code?: unknown };
  return branded[BOARDBOT_ERROR_BRAND] === true && typeof branded.code === 'string';
}
