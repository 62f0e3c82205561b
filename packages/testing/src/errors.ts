import type { ControlApiError } from '@boardbot/emulator/control';
import type { BoardbotErrorOptions, ErrorArgs, ErrorDetail } from '@boardbot/protocol';
import { BoardbotError, createErrorFactory } from '@boardbot/protocol/runtime';

// Every error of `@boardbot/testing`, declared once: its stable code and its message. The reports of a
// timeout and of a failed start are written where they happen (they quote what the bot did).
const TESTING_ERRORS = createErrorFactory({
  BOARDBOT_TEST_TIMEOUT: { message: (report: string) => report },
  BOARDBOT_TEST_INVOCATION_REJECTED: { message: (refusal: ControlApiError) => refusal.message },
  BOARDBOT_TEST_BOT_START: { message: (report: string) => report },
  BOARDBOT_TEST_OPTIONS: { message: (message: string) => message },
  BOARDBOT_TEST_CLOSED: {
    message: (what: string) => `${what}: the test platform is closed. Create a new one with createTestPlatform().`,
  },
  BOARDBOT_TEST_FEED_LOST: {
    message: (reason: string) => `The harness lost the emulator's activity stream (${reason}).`,
  },
});

/**
 * Stable codes of the errors `@boardbot/testing` throws. Match on `error.code`, never on the
 * message: messages show what the bot did and say how to fix the test, and may be reworded.
 */
export const TESTING_ERROR_CODES = TESTING_ERRORS.codes;

/** A stable error code of `@boardbot/testing`. */
export type TestingErrorCode = (typeof TESTING_ERROR_CODES)[number];

/** Base of every error `@boardbot/testing` throws; `code` is stable. */
export abstract class TestingError extends BoardbotError {
  declare readonly code: TestingErrorCode;

  /** Takes the code, the arguments of its message template, and the underlying cause if any. */
  constructor(
    ...[code, args, options]: ErrorArgs<typeof TESTING_ERRORS, [options?: BoardbotErrorOptions | undefined]>
  ) {
    super(code, TESTING_ERRORS.message(code, args), options);
  }
}

/**
 * The bot did not do what a test awaited within the timeout. The message says what was awaited and
 * what the bot did instead: the messages it posted, edited or deleted, and its warning and error log
 * lines.
 */
export class WaitTimeoutError extends TestingError {
  /** How long the wait lasted, in milliseconds. */
  readonly timeoutMs: number;

  /**
   * @param message - the full report (what was expected, what happened instead)
   * @param timeoutMs - the timeout that passed
   */
  constructor(message: string, timeoutMs: number) {
    super('BOARDBOT_TEST_TIMEOUT', [message]);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The platform refused a person's slash command before the bot saw it, as the real platform does:
 * unknown command, a missing required option, a value of the wrong type, out of bounds or not one of
 * the choices. `details` lists each problem (`/options/sides: Expected at least 2`). Other refusals
 * of the control API reach tests as the client's own `ControlApiError` (`BOARDBOT_CONTROL_API_ERROR`).
 */
export class InvocationRejectedError extends TestingError {
  /** HTTP status of the refusal (400). */
  readonly status: number;
  /** The platform's code of the refusal, e.g. `validation_failed`. */
  readonly apiCode: string;
  /** The problems, as `{ path, message }`. */
  readonly details: readonly ErrorDetail[];

  /** @param refusal - the control API's answer to `POST /interactions` */
  constructor(refusal: ControlApiError) {
    super('BOARDBOT_TEST_INVOCATION_REJECTED', [refusal], { cause: refusal });
    this.status = refusal.status;
    this.apiCode = refusal.apiCode;
    this.details = refusal.details;
  }
}

/** The bot failed to start against the test platform; the message carries its log. */
export class BotStartError extends TestingError {
  /** @param message - what failed, with the bot's log; @param cause - the error `start()` threw */
  constructor(message: string, cause: unknown) {
    super('BOARDBOT_TEST_BOT_START', [message], { cause });
  }
}

/** `createTestPlatform` or a harness call got options it cannot use. */
export class TestOptionsError extends TestingError {
  /** @param message - what is wrong and how to fix it */
  constructor(message: string) {
    super('BOARDBOT_TEST_OPTIONS', [message]);
  }
}

/** The platform was closed; the call cannot run. */
export class PlatformClosedError extends TestingError {
  /** @param what - what was attempted */
  constructor(what: string) {
    super('BOARDBOT_TEST_CLOSED', [what]);
  }
}

/** The harness lost its view of the platform's activity, so it can no longer see what the bot does. */
export class FeedLostError extends TestingError {
  /** @param reason - why the activity stream ended */
  constructor(reason: string) {
    super('BOARDBOT_TEST_FEED_LOST', [reason]);
  }
}
