import { BoardbotError } from './boardbot-error.js';

/** Exit codes of `create-boardbot`: 0 done, 1 the install failed, 2 usage error. */
export const CREATE_EXIT_CODES = { ok: 0, failure: 1, usage: 2 } as const;

// Every error of create-boardbot, declared once with the exit code it ends with; the messages are
// written where the problem is found (they quote the directory, the option, npm's exit code).
const CREATE_ERRORS = {
  BOARDBOT_CREATE_USAGE: { exit: CREATE_EXIT_CODES.usage },
  BOARDBOT_CREATE_TARGET_EXISTS: { exit: CREATE_EXIT_CODES.usage },
  BOARDBOT_CREATE_LOCAL_CHECKOUT: { exit: CREATE_EXIT_CODES.usage },
  BOARDBOT_CREATE_INSTALL_FAILED: { exit: CREATE_EXIT_CODES.failure },
} as const;

/** A stable error code of `create-boardbot`. */
export type CreateErrorCode = keyof typeof CREATE_ERRORS;

/**
 * Stable codes of the errors `create-boardbot` reports. Match on `code`; messages say how to fix the
 * problem and may be reworded.
 */
export const CREATE_ERROR_CODES = Object.keys(CREATE_ERRORS) as CreateErrorCode[];

/** An error of `create-boardbot`, with a stable `code` and the exit code it ends with. */
export class CreateBoardbotError extends BoardbotError {
  declare readonly code: CreateErrorCode;
  /** The exit code the command ends with. */
  readonly exitCode: number;

  /**
   * @param code - the stable code
   * @param message - what is wrong and how to fix it
   * @param exitCode - see {@link CREATE_EXIT_CODES} @defaultValue the code's own (1 for a failed install, else 2)
   */
  constructor(code: CreateErrorCode, message: string, exitCode: number = CREATE_ERRORS[code].exit) {
    super(code, message);
    this.exitCode = exitCode;
  }
}
