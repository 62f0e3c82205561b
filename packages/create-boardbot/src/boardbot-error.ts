// A copy of the error root of `@boardbot/protocol` (`BoardbotError`), cut down to what this package
// needs. create-boardbot runs through `npm create boardbot` before anything is installed, so it has no
// runtime dependencies and cannot import protocol. The copy carries the same brand (the registered
// symbol `boardbot.error`), so `isBoardbotError(error)` and `error instanceof BoardbotError` from
// `@boardbot/protocol` recognise its errors as boardbot errors.

const BOARDBOT_ERROR_BRAND = Symbol.for('boardbot.error');

/** The root of create-boardbot's errors: a stable `code` and a message that says how to fix it. */
export abstract class BoardbotError extends Error {
  /** Stable machine-readable code, e.g. `BOARDBOT_CREATE_USAGE`. */
  readonly code: string;

  /**
   * @param code - the stable code
   * @param message - what is wrong and how to fix it
   */
  constructor(code: string, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}

// On the prototype, as in protocol's root: the brand stays out of `{ ...error }` and `JSON.stringify`.
Object.defineProperty(BoardbotError.prototype, BOARDBOT_ERROR_BRAND, { value: true });
