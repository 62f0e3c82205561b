import {
  BoardbotError,
  type BoardbotErrorOptions,
  createErrorFactory,
  ERROR_STATUS,
  type ErrorArgs,
  type ErrorCode,
  type ErrorDetail,
  type ErrorEnvelope,
} from '@boardbot/protocol';

// The emulator's server errors, declared once. Its control API client has its own, in
// `control/errors.ts`, because that entry point must run in browsers without the server's code.
const EMULATOR_ERRORS = createErrorFactory({
  BOARDBOT_EMULATOR_API_ERROR: { message: (message: string) => message },
  BOARDBOT_EMULATOR_OPTIONS: { message: (message: string) => message },
  BOARDBOT_EMULATOR_STORAGE: { message: (message: string) => message },
  BOARDBOT_EMULATOR_STATE: { message: (message: string) => message },
  BOARDBOT_EMULATOR_DB_IN_USE: {
    message: (path: string, owner: EmulatorDatabaseOwner | undefined) =>
      `The emulator database ${path} is in use by another emulator (${
        owner ? `pid ${owner.pid}${owner.url ? `, ${owner.url}` : ''}` : 'its process could not be told'
      }); two emulators on one file would corrupt it. Fix: stop the other one, or give this one another database file (--db <file> for the CLI, the db option of createEmulator).`,
  },
  BOARDBOT_EMULATOR_EXPOSED_DEFAULTS: { message: (message: string) => message },
  BOARDBOT_EMULATOR_ROUTE: {
    message: (route: string) =>
      `The route ${route} has no access rule: give it config.auth ('app', 'interaction', 'admin', 'optional' or 'none')`,
  },
});

/**
 * Stable codes of the emulator server's errors (its control API client's are `CONTROL_ERROR_CODES`).
 * Match on `code`, never on the message.
 */
export const EMULATOR_ERROR_CODES = EMULATOR_ERRORS.codes;

/** A stable error code of the emulator's server. */
export type EmulatorErrorCode = (typeof EMULATOR_ERROR_CODES)[number];

/** Base of the emulator server's errors: a stable `code` and a message that says how to fix it. */
export abstract class EmulatorError extends BoardbotError {
  declare readonly code: EmulatorErrorCode;

  /** Takes the code, the arguments of its message template, and the underlying cause if any. */
  constructor(
    ...[code, args, options]: ErrorArgs<typeof EMULATOR_ERRORS, [options?: BoardbotErrorOptions | undefined]>
  ) {
    super(code, EMULATOR_ERRORS.message(code, args), options);
  }
}

/**
 * An error answer of the emulator's HTTP APIs: thrown anywhere in a request, it becomes the
 * contract's envelope `{ error: { code, message, details?, retry_after? } }` with the code's status,
 * through the one error handler of the server.
 *
 * @example
 * throw new PlatformError('unknown_board', 'No board with this id is visible to the app');
 */
export class PlatformError extends EmulatorError {
  /** The contract's error code sent on the wire. */
  readonly apiCode: ErrorCode;
  /** HTTP status of `apiCode`, from the contract's `ERROR_STATUS` (Fastify reads `statusCode`). */
  readonly statusCode: number;
  /** The problems of a `validation_failed` error. */
  readonly details: ErrorDetail[] | undefined;
  /** Seconds to wait, for `rate_limited`. */
  readonly retryAfter: number | undefined;

  /**
   * @param apiCode - The contract's error code; its status comes from `ERROR_STATUS`.
   * @param message - A sentence for people, saying what was wrong and, where possible, the fix.
   * @param extra - `details` for `validation_failed`, `retryAfter` (seconds) for `rate_limited`.
   */
  constructor(apiCode: ErrorCode, message: string, extra: { details?: ErrorDetail[]; retryAfter?: number } = {}) {
    super('BOARDBOT_EMULATOR_API_ERROR', [message]);
    this.apiCode = apiCode;
    this.statusCode = ERROR_STATUS[apiCode];
    this.details = extra.details;
    this.retryAfter = extra.retryAfter;
  }

  /** The error envelope of this error. */
  toEnvelope(): ErrorEnvelope {
    const error: ErrorEnvelope['error'] = { code: this.apiCode, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    if (this.retryAfter !== undefined) error.retry_after = this.retryAfter;
    return { error };
  }
}

/** A `400 validation_failed` with one or more `{ path, message }` problems. */
export function validationFailed(details: ErrorDetail[], message = 'The request is invalid'): PlatformError {
  const first = details[0];
  const summary = first ? `${message}: ${first.path} ${first.message}` : message;
  return new PlatformError('validation_failed', summary, { details });
}

/** The emulator was given options it cannot run with; the message names the option and the fix. */
export class EmulatorOptionsError extends EmulatorError {
  /** @param message - What is wrong and how to fix it. */
  constructor(message: string) {
    super('BOARDBOT_EMULATOR_OPTIONS', [message]);
  }
}

/** The database cannot be opened or migrated (for example, it was written by a newer emulator). */
export class EmulatorStorageError extends EmulatorError {
  /**
   * @param message - What failed and how to fix it.
   * @param options - The underlying cause.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super('BOARDBOT_EMULATOR_STORAGE', [message], options);
  }
}

/** The emulator holding a database file, as its owner record (`<db>.owner.json`) says. */
export interface EmulatorDatabaseOwner {
  /** Its process. */
  pid: number;
  /** Where it listens, once it does. */
  url?: string;
}

/**
 * Another emulator holds the database file: each emulator holds its file exclusively while it runs
 * (two would corrupt it), and the OS lets go of it when that process ends, however it ends.
 */
export class EmulatorDatabaseInUseError extends EmulatorError {
  /**
   * @param path - The database file.
   * @param owner - The emulator holding it, when its owner record could be read.
   */
  constructor(
    readonly path: string,
    readonly owner: EmulatorDatabaseOwner | undefined,
  ) {
    super('BOARDBOT_EMULATOR_DB_IN_USE', [path, owner]);
  }
}

/**
 * `listen()` beyond loopback with a credential anyone can guess: an app holds the default token
 * (`dev-token`), the seeded `dev-bot` token is weak, or an app's token is weak or of unknown
 * strength (stored before strengths were recorded). Anyone on the network could act as that app.
 */
export class EmulatorExposedDefaultsError extends EmulatorError {
  /** @param message - Which credential is guessable and how to set a real one. */
  constructor(message: string) {
    super('BOARDBOT_EMULATOR_EXPOSED_DEFAULTS', [message]);
  }
}

/** `listen()` was called twice, or after `close()`. */
export class EmulatorStateError extends EmulatorError {
  /** @param message - What was called out of order. */
  constructor(message: string) {
    super('BOARDBOT_EMULATOR_STATE', [message]);
  }
}

/**
 * A route was registered without an access rule (`config.auth`): refused at registration, so no
 * route can serve without one (the gate decides everything from it).
 */
export class EmulatorRouteError extends EmulatorError {
  /** @param route - `METHOD url` of the route. */
  constructor(route: string) {
    super('BOARDBOT_EMULATOR_ROUTE', [route]);
  }
}
