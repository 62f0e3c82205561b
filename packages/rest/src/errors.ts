import type { ErrorArgs, ErrorDetail } from '@boardbot/protocol';
import { BoardbotError, createErrorFactory } from '@boardbot/protocol/runtime';

// The root every boardbot error extends, for `instanceof` and `isBoardbotError` without importing protocol.
export { BoardbotError, isBoardbotError } from '@boardbot/protocol/runtime';

/** The call an error belongs to. `path` is relative to the base URL, with credentials redacted. */
export interface ErrorContext {
  /** HTTP method, e.g. `POST`; empty for errors raised before any call (bad constructor options). */
  method: string;
  /** Path such as `/boards/{id}/messages` or `/interactions/:token`; empty when there was no call. */
  path: string;
  /**
   * The full URL the call went to (base URL and path, an interaction token shown as `:token`), so that a
   * message can show where it failed; absent when there was no call.
   */
  url?: string | undefined;
}

/** What the server said in a non-2xx answer, as far as it could be read. */
export interface ApiErrorInit {
  status: number;
  /** The contract's `error.code`, kept as is even when this version does not know it. */
  apiCode: string;
  /** The server's `error.message` (or a bounded excerpt of a body that was not an envelope). */
  serverMessage: string;
  details?: readonly ErrorDetail[] | undefined;
  /** `error.retry_after` in seconds, when the server sent one. */
  retryAfter?: number | undefined;
}

/** Why a call gave up on the rate limit. */
export type RateLimitReason = 'max_wait' | 'too_many_429';

/** What a {@link RateLimitError} reports. */
export interface RateLimitInit {
  /** How long the call would have had to wait, in milliseconds. */
  retryAfterMs: number;
  /** Which credential's bucket is limited. */
  bucket: 'app' | 'interaction';
  /** The limit per window when known. */
  limit?: number | undefined;
  /** Why the call gave up. */
  reason: RateLimitReason;
}

const call = (c: ErrorContext): string => `${c.method} ${c.path}`;

/** ` (http://host/api/v1/app)`, when the full URL is known. */
const at = (c: ErrorContext): string => (c.url ? ` (${c.url})` : '');

/**
 * The fix of a `404 not_found`: no route has this path, so the base URL is wrong, almost always for a
 * missing `/api/v1`. The base URL is shown, not an option name: the user set it through
 * BOARDBOT_API_URL, createBot's `apiUrl` or the RestClient's `baseUrl`, and knows which.
 */
function noRouteFix(c: ErrorContext): string {
  if (!c.url || !c.path || !c.url.endsWith(c.path)) return '';
  const base = c.url.slice(0, -c.path.length);
  if (/\/api\/v1\/?$/.test(base)) {
    return `. Check the base URL ${base} (set it with BOARDBOT_API_URL): the platform's API is not there.`;
  }
  return (
    `. The base URL ${base} is not the platform's API: it ends in /api/v1, e.g. ` +
    `${new URL('/api/v1', base).href} (set it with BOARDBOT_API_URL).`
  );
}

/** Up to five problems, as `path: message; ...`. */
function listed(details: readonly ErrorDetail[] | undefined): string {
  return (details ?? [])
    .slice(0, 5)
    .map((d) => `${d.path}: ${d.message}`)
    .join('; ');
}

function describeApiError(init: ApiErrorInit, context: ErrorContext): string {
  const text = init.serverMessage ? `: ${init.serverMessage}` : '';
  const details = listed(init.details);
  const where = init.status === 404 && init.apiCode === 'not_found' ? `${at(context)}` : '';
  const fix = where ? noRouteFix(context) : '';
  return `${call(context)}${where} failed with ${init.status} ${init.apiCode}${text}${details ? ` (${details})` : ''}${fix}`;
}

// Every error of the REST client, declared once: its stable code and its message (what happened, and
// how to fix it). Only what the caller gives reaches a message: paths arrive with tokens replaced by
// `:token`, and the server's words arrive redacted.
const REST_ERRORS = createErrorFactory({
  BOARDBOT_API_ERROR: { message: describeApiError },
  BOARDBOT_UNAUTHORIZED: {
    message: (init: ApiErrorInit, context: ErrorContext) =>
      `${describeApiError(init, context)}. Check the app token (BOARDBOT_TOKEN, or the \`token\` option you ` +
      'gave): it is missing, wrong or revoked.',
  },
  BOARDBOT_RATE_LIMITED: {
    message: (init: RateLimitInit, context: ErrorContext) =>
      `${call(context)} ${
        init.reason === 'max_wait'
          ? `would wait ${Math.round(init.retryAfterMs)} ms for the rate limit, longer than maxRateLimitWaitMs`
          : 'was answered 429 rate_limited too many times in a row'
      }; raise maxRateLimitWaitMs or send fewer requests`,
  },
  BOARDBOT_TIMEOUT: {
    message: (init: { timeoutMs: number; attempts: number }, context: ErrorContext) =>
      `${call(context)}${at(context)} timed out after ${init.timeoutMs} ms (${init.attempts} attempt(s)). Is the ` +
      'platform reachable at that address, or should timeoutMs be larger?',
  },
  BOARDBOT_NETWORK: {
    message: (init: { attempts: number; causeCode?: string | undefined }, context: ErrorContext) =>
      `${call(context)}${at(context)} failed: network error${init.causeCode ? ` ${init.causeCode}` : ''} ` +
      `(${init.attempts} attempt(s)). Check that the platform is running at that address.`,
  },
  BOARDBOT_ABORTED: {
    message: (why: 'signal' | 'closed', context: ErrorContext) =>
      why === 'closed'
        ? `${call(context)} was cancelled because the RestClient was closed`
        : `${call(context)} was aborted by its signal`,
  },
  BOARDBOT_QUEUE_FULL: {
    message: (maxQueued: number, context: ErrorContext) =>
      `${call(context)} refused: ${maxQueued} calls are already waiting for the rate limit; slow down or raise maxQueued`,
  },
  BOARDBOT_INVALID_RESPONSE: {
    message: (init: { status: number; problem: string }, context: ErrorContext) =>
      `${call(context)} answered ${init.status} with an invalid body: ${init.problem}`,
  },
  BOARDBOT_INVALID_ARGUMENT: {
    message: (message: string, details: readonly ErrorDetail[]) =>
      listed(details) ? `${message} (${listed(details)})` : message,
  },
});

/**
 * Stable codes of every error the REST client throws. Match on `error.code`, not on the class or the
 * message: codes never change between versions, messages may.
 */
export const REST_ERROR_CODES = REST_ERRORS.codes;

/** A stable error code of `@boardbot/rest`. */
export type RestErrorCode = (typeof REST_ERROR_CODES)[number];

const NO_CALL: ErrorContext = { method: '', path: '' };

/** What the REST client's base error takes after a code and its template's arguments. */
type RestErrorExtra = [context?: ErrorContext | undefined, cause?: unknown];

/**
 * Base class of every error of the REST client. Carries a stable `code` and the call it belongs to;
 * never a token (interaction tokens in paths are replaced by `:token`).
 */
export abstract class BoardbotRestError extends BoardbotError {
  declare readonly code: RestErrorCode;
  /** HTTP method of the call, or `''` when the error was raised outside a call. */
  readonly method: string;
  /** Redacted path of the call, or `''` when the error was raised outside a call. */
  readonly path: string;

  /** Takes the code, the arguments of its message template, the call, and the underlying error if any. */
  constructor(...[code, args, context = NO_CALL, cause]: ErrorArgs<typeof REST_ERRORS, RestErrorExtra>) {
    super(code, REST_ERRORS.message(code, args), { cause });
    this.method = context.method;
    this.path = context.path;
  }
}

/**
 * A non-2xx answer from the platform. `apiCode` is the contract's error code (for example
 * `unknown_board`), or `http_<status>` when the body was not an error envelope (an HTML 502 page).
 */
export class ApiError extends BoardbotRestError {
  /** HTTP status of the answer. */
  readonly status: number;
  /** The contract error code (`error.code`), unknown codes included. */
  readonly apiCode: string;
  /** The server's own message (`error.message`). */
  readonly serverMessage: string;
  /** Problems listed by a `validation_failed` answer; empty otherwise. */
  readonly details: readonly ErrorDetail[];
  /** `error.retry_after` in seconds, when present. */
  readonly retryAfter?: number;

  /**
   * @param init - status, code and message read from the answer
   * @param context - the call
   * @param code - the stable code; `UnauthorizedError` narrows it
   */
  constructor(
    init: ApiErrorInit,
    context: ErrorContext,
    code: 'BOARDBOT_API_ERROR' | 'BOARDBOT_UNAUTHORIZED' = 'BOARDBOT_API_ERROR',
  ) {
    // Both codes' templates take (init, context); ErrorArgs cannot see that through a union of codes.
    super(...([code, [init, context], context] as ErrorArgs<typeof REST_ERRORS, RestErrorExtra>));
    this.status = init.status;
    this.apiCode = init.apiCode;
    this.serverMessage = init.serverMessage;
    this.details = init.details ?? [];
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
  }
}

/** `401 unauthorized`: the app token is missing, wrong or revoked. */
export class UnauthorizedError extends ApiError {
  /**
   * @param init - status, code and message read from the answer
   * @param context - the call
   */
  constructor(init: ApiErrorInit, context: ErrorContext) {
    super(init, context, 'BOARDBOT_UNAUTHORIZED');
  }
}

/**
 * The call would have to wait longer than `maxRateLimitWaitMs` (or was answered 429 too many times).
 * Nothing was sent for the wait that was refused.
 */
export class RateLimitError extends BoardbotRestError {
  /** How long the call would have had to wait, in milliseconds (clamped, never negative). */
  readonly retryAfterMs: number;
  /** Which credential's bucket is limited. */
  readonly bucket: 'app' | 'interaction';
  /** The limit per window when known. */
  readonly limit: number | undefined;
  /** Why the call gave up. */
  readonly reason: RateLimitReason;

  /**
   * @param init - the wait, bucket, limit and reason
   * @param context - the call
   */
  constructor(init: RateLimitInit, context: ErrorContext) {
    super('BOARDBOT_RATE_LIMITED', [init, context], context);
    this.retryAfterMs = init.retryAfterMs;
    this.bucket = init.bucket;
    this.limit = init.limit;
    this.reason = init.reason;
  }
}

/** An attempt got no complete answer within `timeoutMs`, and no retry was left. */
export class TimeoutError extends BoardbotRestError {
  /** The per-attempt timeout that expired. */
  readonly timeoutMs: number;
  /** Attempts made, the last one included. */
  readonly attempts: number;

  /**
   * @param init - the timeout and the attempt count
   * @param context - the call
   * @param cause - the transport's timeout error
   */
  constructor(init: { timeoutMs: number; attempts: number }, context: ErrorContext, cause?: unknown) {
    super('BOARDBOT_TIMEOUT', [init, context], context, cause);
    this.timeoutMs = init.timeoutMs;
    this.attempts = init.attempts;
  }
}

/** The connection failed (refused, reset, closed mid-answer) and no retry was left. */
export class NetworkError extends BoardbotRestError {
  /** Attempts made, the last one included. */
  readonly attempts: number;
  /** The transport's error code, e.g. `ECONNREFUSED` or `UND_ERR_SOCKET`, when there is one. */
  readonly causeCode: string | undefined;

  /**
   * @param init - the attempt count and the transport's error code
   * @param context - the call
   * @param cause - the transport error
   */
  constructor(init: { attempts: number; causeCode?: string | undefined }, context: ErrorContext, cause?: unknown) {
    super('BOARDBOT_NETWORK', [init, context], context, cause);
    this.attempts = init.attempts;
    this.causeCode = init.causeCode;
  }
}

/** The call was cancelled by its `AbortSignal`, or by `close()`, while queued, waiting or in flight. */
export class AbortedError extends BoardbotRestError {
  /**
   * @param why - what cancelled it
   * @param context - the call
   * @param cause - the signal's reason, if any
   */
  constructor(why: 'signal' | 'closed', context: ErrorContext, cause?: unknown) {
    super('BOARDBOT_ABORTED', [why, context], context, cause);
  }
}

/** The rate-limit queue already holds `maxQueued` calls; the new one was refused, not queued. */
export class QueueFullError extends BoardbotRestError {
  /** The bound that was reached. */
  readonly maxQueued: number;

  /**
   * @param maxQueued - the bound
   * @param context - the refused call
   */
  constructor(maxQueued: number, context: ErrorContext) {
    super('BOARDBOT_QUEUE_FULL', [maxQueued, context], context);
    this.maxQueued = maxQueued;
  }
}

/** A 2xx answer whose body is not what the contract says (not JSON, truncated, wrong shape). */
export class InvalidResponseError extends BoardbotRestError {
  /** HTTP status of the answer. */
  readonly status: number;
  /** A bounded excerpt of the body, for diagnosis. */
  readonly excerpt: string;

  /**
   * @param init - status, what was wrong, and a bounded excerpt of the body
   * @param context - the call
   * @param cause - the parse error, if any
   */
  constructor(init: { status: number; problem: string; excerpt: string }, context: ErrorContext, cause?: unknown) {
    super('BOARDBOT_INVALID_RESPONSE', [init, context], context, cause);
    this.status = init.status;
    this.excerpt = init.excerpt;
  }
}

/** Bad input from the caller (an option, an id, a body): rejected before anything is sent. */
export class InvalidArgumentError extends BoardbotRestError {
  /** Each problem, in the contract's `validation_failed` shape. */
  readonly details: readonly ErrorDetail[];

  /**
   * @param message - what is wrong and how to fix it
   * @param details - each problem with its path
   * @param context - the call, when there is one
   */
  constructor(message: string, details: readonly ErrorDetail[] = [], context?: ErrorContext) {
    super('BOARDBOT_INVALID_ARGUMENT', [message, details], context);
    this.details = details;
  }
}
