import type { ErrorDetail } from '@boardbot/protocol';

/** Stable codes of every gateway error; users match on these, never on messages. */
export const GATEWAY_ERROR_CODES = [
  'BOARDBOT_GATEWAY_UNAUTHORIZED',
  'BOARDBOT_GATEWAY_FORBIDDEN',
  'BOARDBOT_GATEWAY_HTTP_ERROR',
  'BOARDBOT_GATEWAY_RATE_LIMITED',
  'BOARDBOT_GATEWAY_SERVER_ERROR',
  'BOARDBOT_GATEWAY_NETWORK',
  'BOARDBOT_GATEWAY_STREAM_ENDED',
  'BOARDBOT_GATEWAY_BAD_CONTENT_TYPE',
  'BOARDBOT_GATEWAY_KEEPALIVE_TIMEOUT',
  'BOARDBOT_GATEWAY_FRAME_TOO_LARGE',
  'BOARDBOT_GATEWAY_MALFORMED_EVENT',
  'BOARDBOT_GATEWAY_CLOSED',
  'BOARDBOT_GATEWAY_INVALID_OPTIONS',
] as const;

/** A stable gateway error code. */
export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

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

/**
 * Base of every gateway error. `fatal` errors stop the client (it closes and rejects `connect()`);
 * the others are the reasons of a reconnect, or a bad event that was skipped.
 */
export class GatewayError extends Error {
  /** Stable code to match on. */
  readonly code: GatewayErrorCode;
  /** Whether the client gave up because of this error. */
  readonly fatal: boolean;
  /** The request that failed, when the error came from one. */
  readonly request: GatewayRequestContext | undefined;

  /**
   * @param code - Stable code of the error.
   * @param message - What happened and, where possible, the fix.
   * @param extra - `fatal` (default false), the failed `request`, and the underlying `cause`.
   */
  constructor(
    code: GatewayErrorCode,
    message: string,
    extra: { fatal?: boolean; request?: GatewayRequestContext; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = new.target.name;
    this.code = code;
    this.fatal = extra.fatal ?? false;
    this.request = extra.request;
  }
}

/** The gateway answered 401: the token is missing or unknown. Fatal: retrying cannot help. */
export class GatewayUnauthorizedError extends GatewayError {
  /** @param request - The failed request (status 401). */
  constructor(request: GatewayRequestContext) {
    super(
      'BOARDBOT_GATEWAY_UNAUTHORIZED',
      `The gateway refused the app token (401 ${request.apiCode ?? 'unauthorized'}) at ${request.url}: ` +
        'check BOARDBOT_TOKEN (or the token option) and that it belongs to an app of this platform.',
      { fatal: true, request },
    );
  }
}

/** The gateway answered 403: the token is valid but may not open the stream. Fatal. */
export class GatewayForbiddenError extends GatewayError {
  /** @param request - The failed request (status 403). */
  constructor(request: GatewayRequestContext) {
    super(
      'BOARDBOT_GATEWAY_FORBIDDEN',
      `The gateway forbids this app token (403 ${request.apiCode ?? 'forbidden'}) at ${request.url}: ` +
        'check BOARDBOT_TOKEN and the app settings of the platform.',
      { fatal: true, request },
    );
  }
}

/** Any other answer that retrying cannot fix (404 for a wrong `baseUrl`, 204 "stop", ...). Fatal. */
export class GatewayHttpError extends GatewayError {
  /** @param request - The failed request. */
  constructor(request: GatewayRequestContext) {
    const hint =
      request.status === 204
        ? 'the server asked the client to stop reconnecting (204 No Content).'
        : 'check the baseUrl option (it must end in /api/v1; the client appends /gateway).';
    super(
      'BOARDBOT_GATEWAY_HTTP_ERROR',
      `The gateway answered ${request.status}${request.apiCode ? ` ${request.apiCode}` : ''} at ${request.url}: ${hint}`,
      { fatal: true, request },
    );
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
    super(
      'BOARDBOT_GATEWAY_RATE_LIMITED',
      `The gateway answered 429 at ${request.url}; retrying after a delay. ` +
        'More than 16 open streams for one app also cause this: close unused GatewayClients.',
      { request },
    );
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
    super('BOARDBOT_GATEWAY_SERVER_ERROR', `The gateway answered ${request.status} at ${request.url}; retrying.`, {
      request,
    });
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
    const detail = cause instanceof Error ? cause.message : String(cause);
    super('BOARDBOT_GATEWAY_NETWORK', `The gateway connection to ${url} failed (${detail}); resuming.`, {
      request: { method: 'GET', url },
      cause,
    });
  }
}

/** The server ended the stream (a restart or a shutdown); the client resumes. */
export class GatewayStreamEndedError extends GatewayError {
  /** @param url - The gateway URL. */
  constructor(url: string) {
    super('BOARDBOT_GATEWAY_STREAM_ENDED', `The gateway ended the stream at ${url}; resuming.`, {
      request: { method: 'GET', url },
    });
  }
}

/** A 200 answer that is not `text/event-stream` (a proxy's page, say); the client retries. */
export class GatewayContentTypeError extends GatewayError {
  /**
   * @param url - The gateway URL.
   * @param contentType - The `Content-Type` that came instead.
   */
  constructor(url: string, contentType: string) {
    super(
      'BOARDBOT_GATEWAY_BAD_CONTENT_TYPE',
      `The gateway at ${url} answered Content-Type "${contentType}" instead of text/event-stream: ` +
        'check the baseUrl option and any proxy in between; retrying.',
      { request: { method: 'GET', url, status: 200 } },
    );
  }
}

/** Nothing arrived (not even a keep-alive comment) for too long: the socket is presumed dead. */
export class GatewayKeepAliveTimeoutError extends GatewayError {
  /** @param timeoutMs - The silence that was tolerated. */
  constructor(timeoutMs: number) {
    super(
      'BOARDBOT_GATEWAY_KEEPALIVE_TIMEOUT',
      `Nothing arrived on the gateway for ${timeoutMs} ms (not even a keep-alive); reconnecting. ` +
        'Raise keepAliveTimeoutMs if the server sends keep-alives less often than every half of it.',
    );
  }
}

/** The server sent more bytes than allowed without completing an event; the client cuts and resumes. */
export class GatewayFrameTooLargeError extends GatewayError {
  /** @param maxFrameBytes - The bound that was crossed. */
  constructor(maxFrameBytes: number) {
    super(
      'BOARDBOT_GATEWAY_FRAME_TOO_LARGE',
      `The gateway sent over ${maxFrameBytes} bytes without completing an event (an over-long line?); ` +
        'cut the connection and resuming. Raise maxFrameBytes if events this large are expected.',
    );
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
    const first = issues[0];
    super(
      'BOARDBOT_GATEWAY_MALFORMED_EVENT',
      `Skipped gateway event ${eventName} id ${eventId || '(none)'}: its data does not match the contract` +
        (first ? ` (${first.path}: ${first.message})` : '.'),
    );
    this.eventId = eventId;
    this.eventName = eventName;
    this.issues = issues;
  }
}

/** `close()` was called before the client was ready, or `connect()` after `close()`. */
export class GatewayClosedError extends GatewayError {
  constructor() {
    super('BOARDBOT_GATEWAY_CLOSED', 'The gateway client is closed: create a new GatewayClient to connect again.');
  }
}

/** An option the client cannot run with; the message names it and the fix. */
export class GatewayOptionsError extends GatewayError {
  /** @param message - What is wrong and how to fix it. */
  constructor(message: string) {
    super('BOARDBOT_GATEWAY_INVALID_OPTIONS', message, { fatal: true });
  }
}
