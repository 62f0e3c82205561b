import type { Logger } from '@boardbot/protocol';
import { LIMITS, silentLogger } from '@boardbot/protocol/runtime';
import { GatewayOptionsError } from './errors.js';
import type { GatewayFetch } from './transport/fetch-types.js';
import { nodeHttpFetch } from './transport/node-http-fetch.js';

/** How the client waits between connection attempts. */
export interface ReconnectOptions {
  /**
   * First wait after a failure when the server sent no `retry:`; doubles on each further failure.
   * @defaultValue 250
   */
  initialDelayMs?: number;
  /**
   * Cap of every wait, including the server's `retry:` and `Retry-After` (a hostile `retry: 99999999`
   * cannot park the client for a day).
   * @defaultValue 30_000
   */
  maxDelayMs?: number;
  /**
   * Random share taken off each wait so that many bots do not reconnect in lock-step: each wait is
   * between `(1 - jitter)` and 1 times the exponential delay.
   * @defaultValue 0.2
   */
  jitter?: number;
}

/** Options of `GatewayClient`. Only `token` is required. */
export interface GatewayClientOptions {
  /** The app token, sent as `Authorization: Bearer <token>`; never logged nor put in an error. */
  token: string;
  /**
   * The app API base URL; the client appends `/gateway`.
   * @defaultValue `http://127.0.0.1:8787/api/v1` (the emulator)
   */
  baseUrl?: string;
  /**
   * The fetch used to open the stream (inject one for proxies, custom dispatchers or tests).
   * @defaultValue a GET over `node:http`/`node:https` that does not follow redirects (`nodeHttpFetch`)
   */
  fetch?: GatewayFetch;
  /**
   * Where the client logs (pino-compatible).
   * @defaultValue `silentLogger`
   */
  logger?: Logger;
  /**
   * Resume point, e.g. the `lastEventId` the app persisted before a restart; the first connection
   * sends it as `Last-Event-ID`.
   * @defaultValue none (start with live events)
   */
  lastEventId?: string | undefined;
  /**
   * Silence (no byte at all, not even a `: keep-alive` comment) after which the socket is presumed
   * dead and the client reconnects; about twice the server's keep-alive interval (15 s).
   * @defaultValue 35_000
   */
  keepAliveTimeoutMs?: number;
  /** Back-off between connection attempts. */
  reconnect?: ReconnectOptions;
  /**
   * Events each `events()` iterator holds before the client stops reading the socket until the
   * consumer catches up (no event is dropped, memory stays bounded).
   * @defaultValue 1_000
   */
  maxBufferedEvents?: number;
  /**
   * Asked before each read of the stream: while it returns a promise, the client stops reading until
   * it settles (the caller's backpressure; the silence does not count against `keepAliveTimeoutMs`).
   * The platform keeps the events meanwhile; one that drops the stream for its unread buffer is
   * resumed with `Last-Event-ID` like any drop. @defaultValue never waits
   */
  readGate?: (() => Promise<void> | undefined) | undefined;
  /**
   * Most bytes held without completing an event (an over-long line, an endless `data:` field); past
   * it the client cuts the connection and resumes rather than grow memory without bound. Keep-alive
   * comments never count.
   * @defaultValue 1_048_576 (1 MiB)
   */
  maxFrameBytes?: number;
  /**
   * Clock in milliseconds, for the keep-alive watchdog.
   * @defaultValue `performance.now`
   */
  now?: () => number;
  /** @defaultValue `globalThis.setTimeout` */
  setTimeout?: (fn: () => void, ms: number) => unknown;
  /** @defaultValue `globalThis.clearTimeout` */
  clearTimeout?: (handle: unknown) => void;
  /**
   * Source of randomness for the jitter, in [0, 1).
   * @defaultValue `Math.random`
   */
  random?: () => number;
}

/** The options with every default applied. */
export type ResolvedGatewayOptions = Required<Omit<GatewayClientOptions, 'lastEventId' | 'reconnect' | 'readGate'>> & {
  lastEventId: string | undefined;
  readGate: (() => Promise<void> | undefined) | undefined;
  reconnect: Required<ReconnectOptions>;
};

/** Defaults of `ReconnectOptions`. */
export const DEFAULT_RECONNECT_OPTIONS = {
  initialDelayMs: 250,
  maxDelayMs: 30_000,
  jitter: 0.2,
} as const satisfies Required<ReconnectOptions>;

/** Defaults of every optional field of `GatewayClientOptions`. */
export const DEFAULT_GATEWAY_OPTIONS = {
  baseUrl: 'http://127.0.0.1:8787/api/v1',
  fetch: nodeHttpFetch,
  logger: silentLogger,
  // CONTRACT: keep-alive every 15 s; a bit over twice that tolerates one lost comment.
  keepAliveTimeoutMs: 35_000,
  reconnect: DEFAULT_RECONNECT_OPTIONS,
  maxBufferedEvents: 1_000,
  maxFrameBytes: LIMITS.bodyBytes,
  now: () => performance.now(),
  setTimeout: (fn: () => void, ms: number): unknown => setTimeout(fn, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  random: Math.random,
} as const satisfies Required<Omit<GatewayClientOptions, 'token' | 'lastEventId' | 'readGate'>>;

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new GatewayOptionsError(
      `The ${name} option must be a ${allowZero ? 'non-negative' : 'positive'} number of milliseconds or items (got ${value}).`,
    );
  }
  return value;
}

// A bearer token is visible ASCII (RFC 6750 allows even less): anything else could smuggle a header.
const TOKEN_PATTERN = /^[\x21-\x7E]+$/;

/**
 * Applies the defaults to `options` and checks them.
 *
 * @param options - What the caller gave.
 * @throws GatewayOptionsError naming the option that cannot work.
 */
export function resolveOptions(options: GatewayClientOptions): ResolvedGatewayOptions {
  if (typeof options?.token !== 'string' || options.token.trim() === '') {
    throw new GatewayOptionsError(
      'The token option is required: pass the app token (for example process.env.BOARDBOT_TOKEN).',
    );
  }
  // Checked here, not by fetch: its refusal quotes the header value (the token) and, being a
  // network-like failure, would be retried forever instead of stopping the client.
  if (!TOKEN_PATTERN.test(options.token)) {
    throw new GatewayOptionsError(
      'The token option is not a valid HTTP header value: it holds a space, a line break, a NUL or another ' +
        'control character. Check BOARDBOT_TOKEN for a stray newline or quote (the token is not shown here).',
    );
  }
  const d = DEFAULT_GATEWAY_OPTIONS;
  const o = {
    ...d,
    // An option left out (or null) takes its default.
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v != null)),
    reconnect: { ...DEFAULT_RECONNECT_OPTIONS, ...options.reconnect },
  } as ResolvedGatewayOptions;
  const protocol = URL.canParse(o.baseUrl) ? new URL(o.baseUrl).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new GatewayOptionsError(
      `The baseUrl option must be an http(s) URL such as ${d.baseUrl} (got "${o.baseUrl}").`,
    );
  }
  positive('reconnect.initialDelayMs', o.reconnect.initialDelayMs);
  positive('reconnect.maxDelayMs', o.reconnect.maxDelayMs);
  if (!(o.reconnect.jitter >= 0 && o.reconnect.jitter <= 1)) {
    throw new GatewayOptionsError(`The reconnect.jitter option must be between 0 and 1 (got ${o.reconnect.jitter}).`);
  }
  if (!Number.isInteger(positive('maxBufferedEvents', o.maxBufferedEvents))) {
    throw new GatewayOptionsError(`The maxBufferedEvents option must be a whole number (got ${o.maxBufferedEvents}).`);
  }
  positive('keepAliveTimeoutMs', o.keepAliveTimeoutMs);
  positive('maxFrameBytes', o.maxFrameBytes);
  return o;
}
