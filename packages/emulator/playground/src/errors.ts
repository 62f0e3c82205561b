import type { ErrorDetail } from './api/types.js';

/** Stable codes of the playground's errors; the page branches on these, never on messages. */
export const PLAYGROUND_ERROR_CODES = {
  /** The control API answered with its error envelope. */
  api: 'BOARDBOT_PLAYGROUND_API_ERROR',
  /** The emulator could not be reached (it stopped, or the network is down). */
  unreachable: 'BOARDBOT_PLAYGROUND_UNREACHABLE',
} as const;

/**
 * An error answer of the control API, with the contract's `code` (`validation_failed`,
 * `unauthorized`, ...) and, for validation errors, the `details` that point at the bad fields.
 */
export class ControlApiError extends Error {
  /** {@link PLAYGROUND_ERROR_CODES.api}. */
  readonly code = PLAYGROUND_ERROR_CODES.api;
  override readonly name = 'ControlApiError';

  /**
   * @param status - HTTP status of the answer.
   * @param apiCode - the envelope's `error.code` (`unknown` when the body was not an envelope).
   * @param message - the envelope's message, for people.
   * @param details - the envelope's `details` (`validation_failed` only), else empty.
   * @param request - `METHOD /path` of the call (never with the admin key).
   */
  constructor(
    readonly status: number,
    readonly apiCode: string,
    message: string,
    readonly details: readonly ErrorDetail[],
    readonly request: string,
  ) {
    super(message);
  }
}

/** The emulator did not answer at all; the page keeps retrying. */
export class EmulatorUnreachableError extends Error {
  /** {@link PLAYGROUND_ERROR_CODES.unreachable}. */
  readonly code = PLAYGROUND_ERROR_CODES.unreachable;
  override readonly name = 'EmulatorUnreachableError';

  /**
   * @param request - `METHOD /path` of the call.
   * @param cause - what `fetch` threw.
   */
  constructor(
    readonly request: string,
    cause: unknown,
  ) {
    super(`Cannot reach the emulator (${request}). Is it still running? Start it with \`npx boardbot emulator\`.`, {
      cause,
    });
  }
}

/** Whether `error` is the control API refusing the admin key. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ControlApiError && error.status === 401;
}
