/**
 * Stable codes of the errors `create-boardbot` reports. Match on `code`; messages say how to fix the
 * problem and may be reworded.
 */
export const CREATE_ERROR_CODES = [
  'BOARDBOT_CREATE_USAGE',
  'BOARDBOT_CREATE_TARGET_EXISTS',
  'BOARDBOT_CREATE_LOCAL_CHECKOUT',
  'BOARDBOT_CREATE_INSTALL_FAILED',
] as const;

/** A stable error code of `create-boardbot`. */
export type CreateErrorCode = (typeof CREATE_ERROR_CODES)[number];

/** Exit codes of `create-boardbot`: 0 done, 1 the install failed, 2 usage error. */
export const CREATE_EXIT_CODES = { ok: 0, failure: 1, usage: 2 } as const;

/** An error of `create-boardbot`, with a stable `code` and the exit code it ends with. */
export class CreateBoardbotError extends Error {
  /** Stable code to match on. */
  readonly code: CreateErrorCode;
  /** The exit code the command ends with. */
  readonly exitCode: number;

  /**
   * @param code - the stable code
   * @param message - what is wrong and how to fix it
   * @param exitCode - see {@link CREATE_EXIT_CODES}
   */
  constructor(code: CreateErrorCode, message: string, exitCode: number = CREATE_EXIT_CODES.usage) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
  }
}
