import type { Logger } from '@boardbot/protocol';
import { silentLogger } from '@boardbot/protocol/runtime';
import { type Context, type TracerProvider, trace } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import { InvalidArgumentError } from './errors.js';
import type { SharedRateLimit } from './ratelimit/shared-rate-limit.js';

/** Options of {@link RestClient}. Every field but `token` has a default. */
export interface RestClientOptions {
  /**
   * The app token, sent as `Authorization: Bearer <token>` on endpoints 1–11. Never logged, never in
   * an error or an event. Without it only `answerInteraction` works.
   */
  token?: string | undefined;
  /**
   * Base URL of the app API, version prefix included.
   * @defaultValue `'http://127.0.0.1:8787/api/v1'` (the emulator)
   */
  baseUrl?: string;
  /**
   * The undici dispatcher every request goes through (an `Agent`, a `Pool`, a `ProxyAgent`...). A
   * dispatcher you pass stays yours: `close()` does not close it.
   * @defaultValue a keep-alive `Agent` owned (and closed) by the client
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * Where debug lines go (waits, retries, failures). A pino logger fits.
   * @defaultValue `silentLogger`
   */
  logger?: Logger;
  /**
   * Per-attempt timeout in milliseconds: for the headers to arrive, and between two chunks of the body.
   * @defaultValue `15_000`
   */
  timeoutMs?: number;
  /**
   * Retries after a network error, a timeout or a 500/502/503/504 (so `retries + 1` attempts at most).
   * 4xx answers other than 429 are never retried.
   * @defaultValue `3`
   */
  retries?: number;
  /**
   * First back-off delay in milliseconds; each retry doubles it (with jitter).
   * @defaultValue `300`
   */
  retryBaseMs?: number;
  /**
   * Longest back-off delay in milliseconds.
   * @defaultValue `10_000`
   */
  retryMaxMs?: number;
  /**
   * Longest wait for the rate limit a call accepts; a longer one fails at once with `RateLimitError`.
   * @defaultValue `60_000`
   */
  maxRateLimitWaitMs?: number;
  /**
   * How many 429 answers in a row one call tolerates before it fails with `RateLimitError`.
   * @defaultValue `10`
   */
  rateLimitRetries?: number;
  /**
   * Most calls waiting for the rate limit across all credentials; more fail with `QueueFullError`.
   * @defaultValue `10_000`
   */
  maxQueued?: number;
  /**
   * Appended to the `User-Agent` (e.g. `my-bot/1.2`).
   * @defaultValue `''`
   */
  userAgentSuffix?: string;
  /**
   * Checks request bodies against the protocol schemas before sending, so a mistake (say `reply_to`
   * for `replyTo`) fails early with `InvalidArgumentError` and the list of problems.
   * @defaultValue `true`
   */
  validateRequests?: boolean;
  /**
   * The clock, in epoch milliseconds; rate-limit resets are computed with it.
   * @defaultValue `() => Date.now()`
   */
  now?: () => number;
  /**
   * Random source in [0, 1) for the back-off jitter.
   * @defaultValue `Math.random`
   */
  random?: () => number;
  /**
   * Where the span of each call comes from (OpenTelemetry): each call is a client span, a child of
   * its `traceContext`, and sends W3C `traceparent` (and `baggage`) headers. `false` makes no span
   * and sends no trace header.
   * @defaultValue the global provider of `@opentelemetry/api` (non-recording until an SDK is registered)
   */
  tracerProvider?: TracerProvider | false;
  /**
   * The app token's rate-limit bucket, shared with the other processes that use the token (replicas
   * of one bot): each call reserves its slot there before it is sent, so that together they never
   * draw a 429. `@boardbot/redis` provides one. Interaction tokens keep their in-process queue.
   * @defaultValue none: the bucket is this client's own
   */
  sharedRateLimit?: SharedRateLimit | undefined;
}

/** Options of one call. */
export interface RequestOptions {
  /** Cancels the call whether it is queued, backing off or in flight (`AbortedError`). */
  signal?: AbortSignal | undefined;
  /**
   * `Idempotency-Key` of a POST (send, answer) or a PATCH (edit). One is generated per call when
   * absent and reused by every retry of that call, so a retry never writes twice.
   */
  idempotencyKey?: string | undefined;
  /** Correlation id sent as `X-Request-Id` and bound on this call's log lines. */
  requestId?: string | undefined;
  /** A logger for this call's lines (the runtime passes a child logger per event). */
  logger?: Logger | undefined;
  /**
   * The OpenTelemetry context the call's span is a child of, and whose baggage it sends (the runtime
   * passes the handler's). @defaultValue OpenTelemetry's active context
   */
  traceContext?: Context | undefined;
  /**
   * Called right before each attempt is sent, after its wait for the rate limit: a throw cancels the
   * call with that error. For a check that must hold when the request leaves, not when it was queued
   * (a replica's streamed answer checks that it still owns its event: its process may have been
   * paused while the call waited).
   */
  admit?: (() => void) | undefined;
}

/** The options that have a default, as the client uses them. */
export type ResolvedRestOptions = Required<Omit<RestClientOptions, 'token' | 'dispatcher' | 'sharedRateLimit'>>;

/** Defaults of {@link RestClientOptions}, in one place. */
export const DEFAULT_REST_OPTIONS = {
  baseUrl: 'http://127.0.0.1:8787/api/v1',
  logger: silentLogger,
  timeoutMs: 15_000,
  retries: 3,
  retryBaseMs: 300,
  retryMaxMs: 10_000,
  maxRateLimitWaitMs: 60_000,
  rateLimitRetries: 10,
  maxQueued: 10_000,
  userAgentSuffix: '',
  validateRequests: true,
  now: () => Date.now(),
  random: Math.random,
  // A getter: the provider is the global one when the client is made, not when this module loads.
  get tracerProvider(): TracerProvider {
    return trace.getTracerProvider();
  },
} as const satisfies ResolvedRestOptions;

function check(ok: boolean, path: string, message: string): void {
  if (!ok) throw new InvalidArgumentError('Invalid RestClient options', [{ path: `/${path}`, message }]);
}

const isCount = (n: number) => Number.isInteger(n) && n >= 0;
// A header value must not be able to smuggle a second header or line, nor make undici refuse every
// request: visible ASCII for a token (RFC 6750 allows even less), printable ASCII for the User-Agent.
const TOKEN_PATTERN = /^[\x21-\x7E]+$/;
const USER_AGENT_PATTERN = /^[\x20-\x7E]*$/;

/**
 * Fills in the defaults and rejects nonsense (a zero timeout, a non-HTTP base URL, a token with
 * spaces) with an {@link InvalidArgumentError} that names the option; the token's value is never shown.
 * @param options - what the caller gave
 */
export function resolveOptions(options: RestClientOptions): ResolvedRestOptions {
  const o: ResolvedRestOptions = { ...DEFAULT_REST_OPTIONS };
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && key !== 'token' && key !== 'dispatcher' && key !== 'sharedRateLimit') {
      (o as Record<string, unknown>)[key] = value;
    }
  }
  if (options.token !== undefined) {
    check(typeof options.token === 'string' && TOKEN_PATTERN.test(options.token), 'token', 'Expected visible ASCII');
  }
  const protocol = URL.canParse(o.baseUrl) ? new URL(o.baseUrl).protocol : undefined;
  check(protocol === 'http:' || protocol === 'https:', 'baseUrl', 'Expected an http(s) URL');
  check(Number.isFinite(o.timeoutMs) && o.timeoutMs > 0, 'timeoutMs', 'Expected a positive number');
  check(isCount(o.retries), 'retries', 'Expected an integer ≥ 0');
  check(Number.isFinite(o.retryBaseMs) && o.retryBaseMs >= 0, 'retryBaseMs', 'Expected a number ≥ 0');
  check(Number.isFinite(o.retryMaxMs) && o.retryMaxMs >= o.retryBaseMs, 'retryMaxMs', 'Expected ≥ retryBaseMs');
  check(o.maxRateLimitWaitMs >= 0, 'maxRateLimitWaitMs', 'Expected a number ≥ 0');
  check(isCount(o.rateLimitRetries), 'rateLimitRetries', 'Expected an integer ≥ 0');
  check(isCount(o.maxQueued) && o.maxQueued > 0, 'maxQueued', 'Expected an integer ≥ 1');
  check(
    typeof o.userAgentSuffix === 'string' && USER_AGENT_PATTERN.test(o.userAgentSuffix),
    'userAgentSuffix',
    'Expected printable ASCII (no line break, NUL or other control character)',
  );
  check(typeof o.now === 'function' && typeof o.random === 'function', 'now', 'Expected functions for now and random');
  return o;
}
