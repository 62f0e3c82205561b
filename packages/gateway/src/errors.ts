import type { ErrorArgs, ErrorDetail, ErrorSpec } from '@boardbot/protocol';
import { BoardbotError, causeCode, createErrorFactory } from '@boardbot/protocol/runtime';

// The root every boardbot error extends, for `instanceof` and `isBoardbotError` without importing protocol.
export { BoardbotError, isBoardbotError } from '@boardbot/protocol/runtime';

/** What the request looked like when it failed; never holds the token. */
export interface GatewayRequestContext {
  method: 'GET';
  /** The gateway URL (the token travels in a header, never in the URL). */
  url: string;
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** The contract's `error.code` from the answer's envelope, when it had one. */
  apiCode?: string;
}

// Every gateway error, declared once: its stable code, its message (what happened, and the fix) and
// whether it stops the client (`fatal`: retrying cannot help). No template is given the token: it
// travels in a header, never in a URL or a message.
const GATEWAY_ERRORS = createErrorFactory({
  BOARDBOT_GATEWAY_UNAUTHORIZED: {
    fatal: true,
    message: (request: GatewayRequestContext) =>
      `The gateway refused the app token (401 ${request.apiCode ?? 'unauthorized'}) at ${request.url}: ` +
      'check BOARDBOT_TOKEN (or the token option) and that it belongs to an app of this platform.',
  },
  BOARDBOT_GATEWAY_FORBIDDEN: {
    fatal: true,
    message: (request: GatewayRequestContext) =>
      `The gateway forbids this app token (403 ${request.apiCode ?? 'forbidden'}) at ${request.url}: ` +
      'check BOARDBOT_TOKEN and the app settings of the platform.',
  },
  BOARDBOT_GATEWAY_HTTP_ERROR: {
    fatal: true,
    message: (request: GatewayRequestContext) =>
      `The gateway answered ${request.status}${request.apiCode ? ` ${request.apiCode}` : ''} at ${request.url}: ` +
      (request.status === 204
        ? 'the server asked the client to stop reconnecting (204 No Content).'
        : 'check the baseUrl option (it must end in /api/v1; the client appends /gateway).'),
  },
  BOARDBOT_GATEWAY_RATE_LIMITED: {
    message: (request: GatewayRequestContext) =>
      `The gateway answered 429 at ${request.url}; retrying after a delay. ` +
      'More than 16 open streams for one app also cause this: close unused GatewayClients.',
  },
  BOARDBOT_GATEWAY_SERVER_ERROR: {
    message: (request: GatewayRequestContext) => `The gateway answered ${request.status} at ${request.url}; retrying.`,
  },
  BOARDBOT_GATEWAY_NETWORK: {
    // A text cause is the client's own description (or eventsource's, of a request whose token was
    // checked first); an error cause is named by its code only: a transport's message may quote the request.
    message: (url: string, cause: unknown) => {
      const detail = typeof cause === 'string' ? cause : causeCode(cause);
      return `The gateway connection to ${url} failed${detail ? ` (${detail})` : ''}; resuming.`;
    },
  },
  BOARDBOT_GATEWAY_STREAM_ENDED: {
    message: (url: string) => `The gateway ended the stream at ${url}; resuming.`,
  },
  BOARDBOT_GATEWAY_BAD_CONTENT_TYPE: {
    message: (url: string, contentType: string) =>
      `The gateway at ${url} answered Content-Type "${contentType}" instead of text/event-stream: ` +
      'check the baseUrl option and any proxy in between; retrying.',
  },
  BOARDBOT_GATEWAY_KEEPALIVE_TIMEOUT: {
    message: (timeoutMs: number) =>
      `Nothing arrived on the gateway for ${timeoutMs} ms (not even a keep-alive); reconnecting. ` +
      'Raise keepAliveTimeoutMs if the server sends keep-alives less often than every half of it.',
  },
  BOARDBOT_GATEWAY_FRAME_TOO_LARGE: {
    message: (maxFrameBytes: number) =>
      `The gateway sent over ${maxFrameBytes} bytes without completing an event (an over-long line?); ` +
      'cut the connection and resuming. Raise maxFrameBytes if events this large are expected.',
  },
  BOARDBOT_GATEWAY_MALFORMED_EVENT: {
    message: (eventName: string, eventId: string, issues: readonly ErrorDetail[]) =>
      `Skipped gateway event ${eventName} id ${eventId || '(none)'}: its data does not match the contract` +
      (issues[0] ? ` (${issues[0].path}: ${issues[0].message})` : '.'),
  },
  BOARDBOT_GATEWAY_CLOSED: {
    message: () => 'The gateway client is closed: create a new GatewayClient to connect again.',
  },
  BOARDBOT_GATEWAY_INVALID_OPTIONS: { fatal: true, message: (message: string) => message },
  BOARDBOT_GATEWAY_CONCURRENT_NEXT: {
    message: () =>
      'events(): next() was called again before the previous call settled; await each next() (a for await loop does).',
  },
  BOARDBOT_GATEWAY_INTERNAL: {
    fatal: true,
    message: (from: string, to: string) =>
      `The gateway client moved from ${from} to ${to}, which it never should: a bug in @boardbot/gateway. ` +
      'Please report it with this message and the log lines before it.',
  },
});

/** Stable codes of every gateway error; users match on these, never on messages. */
export const GATEWAY_ERROR_CODES = GATEWAY_ERRORS.codes;

/** A stable gateway error code. */
export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

/** What the gateway's base error takes after a code and its template's arguments. */
type GatewayErrorExtra = [extra?: { request?: GatewayRequestContext; cause?: unknown }];

/**
 * Base of every gateway error. `fatal` errors stop the client (it closes and rejects `connect()`);
 * the others are the reasons of a reconnect, or a bad event that was skipped.
 */
export abstract class GatewayError extends BoardbotError {
  declare readonly code: GatewayErrorCode;
  /** Whether the client gave up because of this error. */
  readonly fatal: boolean;
  /** The request that failed, when the error came from one. */
  readonly request: GatewayRequestContext | undefined;

  /** Takes the code, the arguments of its message template, then the failed `request` and the `cause`. */
  constructor(...[code, args, extra = {}]: ErrorArgs<typeof GATEWAY_ERRORS, GatewayErrorExtra>) {
    super(code, GATEWAY_ERRORS.message(code, args), { cause: extra.cause });
    const spec: ErrorSpec & { fatal?: boolean } = GATEWAY_ERRORS.spec(code);
    this.fatal = spec.fatal ?? false;
    this.request = extra.request;
  }
}

/** The gateway answered 401: the token is missing or unknown. Fatal: retrying cannot help. */
export class GatewayUnauthorizedError extends GatewayError {
  /** @param request - The failed request (status 401). */
  constructor(request: GatewayRequestContext) {
    super('BOARDBOT_GATEWAY_UNAUTHORIZED', [request], { request });
  }
}

/** The gateway answered 403: the token is valid but may not open the stream. Fatal. */
export class GatewayForbiddenError extends GatewayError {
  /** @param request - The failed request (status 403). */
  constructor(request: GatewayRequestContext) {
    super('BOARDBOT_GATEWAY_FORBIDDEN', [request], { request });
  }
}

/** Any other answer that retrying cannot fix (404 for a wrong `baseUrl`, 204 "stop", ...). Fatal. */
export class GatewayHttpError extends GatewayError {
  /** @param request - The failed request. */
  constructor(request: GatewayRequestContext) {
    super('BOARDBOT_GATEWAY_HTTP_ERROR', [request], { request });
  }
}

/** The gateway answered 429 (too many streams or requests); the client waits and retries. */
export class GatewayRateLimitedError extends GatewayError {
  /** `Retry-After` in milliseconds, when the answer had one. */
  readonly retryAfterMs: number | undefined;
  /**
   * @param request - The failed request (status 429).
   * @param retryAfterMs - The answer's `Retry-After`, in milliseconds.
   */
  constructor(request: GatewayRequestContext, retryAfterMs: number | undefined) {
    super('BOARDBOT_GATEWAY_RATE_LIMITED', [request], { request });
    this.retryAfterMs = retryAfterMs;
  }
}

/** The gateway answered 5xx (or 408); the client waits and retries. */
export class GatewayServerError extends GatewayError {
  /** `Retry-After` in milliseconds, when the answer had one. */
  readonly retryAfterMs: number | undefined;
  /**
   * @param request - The failed request.
   * @param retryAfterMs - The answer's `Retry-After`, in milliseconds.
   */
  constructor(request: GatewayRequestContext, retryAfterMs: number | undefined) {
    super('BOARDBOT_GATEWAY_SERVER_ERROR', [request], { request });
    this.retryAfterMs = retryAfterMs;
  }
}

/** The connection failed or was cut (refused, reset, DNS); the client resumes. */
export class GatewayNetworkError extends GatewayError {
  /**
   * @param url - The gateway URL.
   * @param cause - The underlying error, or its message.
   */
  constructor(url: string, cause: unknown) {
    super('BOARDBOT_GATEWAY_NETWORK', [url, cause], { request: { method: 'GET', url }, cause });
  }
}

/** The server ended the stream (a restart or a shutdown); the client resumes. */
export class GatewayStreamEndedError extends GatewayError {
  /** @param url - The gateway URL. */
  constructor(url: string) {
    super('BOARDBOT_GATEWAY_STREAM_ENDED', [url], { request: { method: 'GET', url } });
  }
}

/** A 200 answer that is not `text/event-stream` (a proxy's page, say); the client retries. */
export class GatewayContentTypeError extends GatewayError {
  /**
   * @param url - The gateway URL.
   * @param contentType - The `Content-Type` that came instead.
   */
  constructor(url: string, contentType: string) {
    super('BOARDBOT_GATEWAY_BAD_CONTENT_TYPE', [url, contentType], { request: { method: 'GET', url, status: 200 } });
  }
}

/** Nothing arrived (not even a keep-alive comment) for too long: the socket is presumed dead. */
export class GatewayKeepAliveTimeoutError extends GatewayError {
  /** @param timeoutMs - The silence that was tolerated. */
  constructor(timeoutMs: number) {
    super('BOARDBOT_GATEWAY_KEEPALIVE_TIMEOUT', [timeoutMs]);
  }
}

/** The server sent more bytes than allowed without completing an event; the client cuts and resumes. */
export class GatewayFrameTooLargeError extends GatewayError {
  /** @param maxFrameBytes - The bound that was crossed. */
  constructor(maxFrameBytes: number) {
    super('BOARDBOT_GATEWAY_FRAME_TOO_LARGE', [maxFrameBytes]);
  }
}

/** A known event whose `data:` is not the JSON the contract describes; it was skipped. */
export class GatewayMalformedEventError extends GatewayError {
  /** The event id (empty when the frame had none). */
  readonly eventId: string;
  /** The event name. */
  readonly eventName: string;
  /** What is wrong with the payload. */
  readonly issues: ErrorDetail[];
  /**
   * @param eventName - The frame's `event:` name.
   * @param eventId - The frame's `id:`.
   * @param issues - The problems found (a JSON syntax error has one at path `/`).
   */
  constructor(eventName: string, eventId: string, issues: ErrorDetail[]) {
    super('BOARDBOT_GATEWAY_MALFORMED_EVENT', [eventName, eventId, issues]);
    this.eventId = eventId;
    this.eventName = eventName;
    this.issues = issues;
  }
}

/** `close()` was called before the client was ready, or `connect()` after `close()`. */
export class GatewayClosedError extends GatewayError {
  constructor() {
    super('BOARDBOT_GATEWAY_CLOSED', []);
  }
}

/** An option the client cannot run with; the message names it and the fix. */
export class GatewayOptionsError extends GatewayError {
  /** @param message - What is wrong and how to fix it. */
  constructor(message: string) {
    super('BOARDBOT_GATEWAY_INVALID_OPTIONS', [message]);
  }
}

/** `next()` of an `events()` iterator was called while its previous call was still pending. */
export class GatewayConcurrentNextError extends GatewayError {
  constructor() {
    super('BOARDBOT_GATEWAY_CONCURRENT_NEXT', []);
  }
}

/** The client tried a state change it never makes: a bug in the client, stopped here. Fatal. */
export class GatewayInternalError extends GatewayError {
  /**
   * @param from - The state the client was in.
   * @param to - The state it tried to move to.
   */
  constructor(from: string, to: string) {
    super('BOARDBOT_GATEWAY_INTERNAL', [from, to]);
  }
}
