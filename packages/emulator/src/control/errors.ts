import type { ErrorDetail } from '@boardbot/protocol';
import {
  BoardbotError,
  type BoardbotErrorOptions,
  causeCode,
  createErrorFactory,
  type ErrorArgs,
} from '@boardbot/protocol/error-root';

// The errors of the control API client. This module runs in browsers too (the playground), so at run
// time it imports only the error root, which imports nothing.

/** Where a control API call went: `method` and the path under `/_emulator/v1`, query included. */
export interface ControlRequest {
  /** HTTP method, e.g. `POST`. */
  method: string;
  /** Path under `/_emulator/v1`, e.g. `/interactions`. Never carries the admin key. */
  path: string;
}

/** What a refusal of the control API said. */
export interface ControlRefusal {
  /** HTTP status of the answer. */
  status: number;
  /** The envelope's `error.code` (`validation_failed`, `unknown_board`...), `http_<status>` without one. */
  apiCode: string;
  /** The envelope's message, for people. */
  serverMessage: string;
  /** The problems of a `validation_failed` answer (`{ path: '/options/sides', message }`), else empty. */
  details: readonly ErrorDetail[];
}

const CONTROL_ERRORS = createErrorFactory({
  BOARDBOT_CONTROL_API_ERROR: {
    message: (request: ControlRequest, refusal: ControlRefusal) =>
      `${request.method} ${request.path} answered ${refusal.status} ${refusal.apiCode}: ${refusal.serverMessage}` +
      refusal.details.map((d) => `\n  - ${d.path}: ${d.message}`).join(''),
  },
  BOARDBOT_CONTROL_UNREACHABLE: {
    // The cause is named by its code only: fetch's message may quote the request's headers.
    message: (request: ControlRequest, origin: string, cause: unknown) => {
      const code = causeCode(cause);
      return (
        `Cannot reach the emulator at ${origin} for ${request.method} ${request.path}${code ? ` (${code})` : ''}. ` +
        'Is it running? Start it with `npx boardbot emulator` or `npm run dev`.'
      );
    },
  },
  BOARDBOT_CONTROL_INVALID_OPTIONS: { message: (message: string) => message },
  BOARDBOT_CONTROL_SCHEMA: {
    message: (title: string) =>
      `Two different schemas of the control API are titled "${title}": a title names one schema in the OpenAPI ` +
      'document, so rename one of them.',
  },
});

/**
 * Stable codes of the control API client's errors. Match on `code`, never on the message; the
 * platform's own code of a refusal is `apiCode`.
 */
export const CONTROL_ERROR_CODES = CONTROL_ERRORS.codes;

/** A stable error code of the control API client. */
export type ControlErrorCode = (typeof CONTROL_ERROR_CODES)[number];

/** Base of the errors of the control API's client and document: a stable `code` to match on. */
export abstract class ControlError extends BoardbotError {
  declare readonly code: ControlErrorCode;

  /** Takes the code, the arguments of its message template, and the underlying cause if any. */
  constructor(
    ...[code, args, options]: ErrorArgs<typeof CONTROL_ERRORS, [options?: BoardbotErrorOptions | undefined]>
  ) {
    super(code, CONTROL_ERRORS.message(code, args), options);
  }
}

/**
 * The control API answered with an error: the call, the status, the platform's code (`apiCode`),
 * its message and, for `validation_failed`, the `details` that point at the bad fields.
 *
 * @example
 * try {
 *   await control.invoke({ board_id, user_id, command: 'roll', options: { sides: 1 } });
 * } catch (error) {
 *   if (error instanceof ControlApiError && error.apiCode === 'validation_failed') console.log(error.details);
 * }
 */
export class ControlApiError extends ControlError {
  // Named by hand: a bundler that shortens class names (the playground's) would change `new.target.name`.
  override readonly name = 'ControlApiError';
  /** HTTP method of the call. */
  readonly method: string;
  /** Path of the call under `/_emulator/v1`. */
  readonly path: string;
  /** HTTP status of the answer. */
  readonly status: number;
  /** The platform's code of the answer, e.g. `validation_failed`; `http_<status>` without an envelope. */
  readonly apiCode: string;
  /** The server's message, as sent. */
  readonly serverMessage: string;
  /** The problems of a `validation_failed` answer, as `{ path, message }`. */
  readonly details: readonly ErrorDetail[];

  /**
   * @param request - the call
   * @param refusal - what the answer said
   */
  constructor(request: ControlRequest, refusal: ControlRefusal) {
    super('BOARDBOT_CONTROL_API_ERROR', [request, refusal]);
    this.method = request.method;
    this.path = request.path;
    this.status = refusal.status;
    this.apiCode = refusal.apiCode;
    this.serverMessage = refusal.serverMessage;
    this.details = refusal.details;
  }
}

/** Nothing answered a control API call: the emulator stopped, or the URL is wrong. */
export class ControlUnreachableError extends ControlError {
  // Named by hand, as ControlApiError is.
  override readonly name = 'ControlUnreachableError';
  /** HTTP method of the call. */
  readonly method: string;
  /** Path of the call under `/_emulator/v1`. */
  readonly path: string;

  /**
   * @param request - the call
   * @param origin - where the emulator was expected, e.g. `http://127.0.0.1:8787`
   * @param cause - what `fetch` threw
   */
  constructor(request: ControlRequest, origin: string, cause: unknown) {
    super('BOARDBOT_CONTROL_UNREACHABLE', [request, origin, cause], { cause });
    this.method = request.method;
    this.path = request.path;
  }
}

/** The client was given an option it cannot send with; the message names it and the fix, never the key. */
export class ControlOptionsError extends ControlError {
  // Named by hand, as ControlApiError is.
  override readonly name = 'ControlOptionsError';

  /** @param message - what is wrong and how to fix it */
  constructor(message: string) {
    super('BOARDBOT_CONTROL_INVALID_OPTIONS', [message]);
  }
}

/**
 * Two different schemas of the control API share a title, so its OpenAPI document would point one
 * `$ref` at both. Only code that changes the control API's schemas meets it.
 */
export class ControlSchemaError extends ControlError {
  // Named by hand, as ControlApiError is.
  override readonly name = 'ControlSchemaError';

  /** @param title - the title both schemas carry */
  constructor(title: string) {
    super('BOARDBOT_CONTROL_SCHEMA', [title]);
  }
}

/**
 * Reads an error answer. CONTRACT: every error answer is `{ error: { code, message, details? } }`;
 * anything else (a proxy's page) is still a refusal, with `http_<status>` as its code.
 *
 * @param status - the answer's HTTP status
 * @param text - the answer's body
 */
export function refusalOf(status: number, text: string): ControlRefusal {
  const error = envelopeOf(text);
  const details = Array.isArray(error?.details) ? error.details.filter(isDetail) : [];
  return {
    status,
    apiCode: typeof error?.code === 'string' ? error.code : `http_${status}`,
    serverMessage: typeof error?.message === 'string' ? error.message : `The emulator answered ${status}.`,
    details: details.map((d) => ({ path: d.path, message: d.message })),
  };
}

function envelopeOf(text: string): { code?: unknown; message?: unknown; details?: unknown } | undefined {
  try {
    const error = (JSON.parse(text) as { error?: unknown } | null)?.error;
    return typeof error === 'object' && error !== null ? error : undefined;
  } catch {
    return undefined;
  }
}

function isDetail(value: unknown): value is ErrorDetail {
  const d = value as { path?: unknown; message?: unknown } | null;
  return typeof d?.path === 'string' && typeof d.message === 'string';
}

/** Whether `error` is the control API refusing the admin key (`401`). */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ControlApiError && error.status === 401;
}
