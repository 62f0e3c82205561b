import { LIMITS, type Logger } from '@boardbot/protocol';
import type { LoggerOptions } from 'pino';

/**
 * The seeded `dev-bot` app's token when none is configured. It is a fixed, documented value so that
 * a new bot works against a fresh emulator with no configuration at all (`BOARDBOT_TOKEN=dev-token`).
 */
export const DEFAULT_DEV_TOKEN = 'dev-token';

/** Where the emulator keeps its data when no `db` is given (relative to the working directory). */
export const DEFAULT_DB_PATH = '.boardbot/emulator.db';

/**
 * Operational limits the emulator lets a caller override. Message and command limits are not here:
 * they are part of the wire contract and compiled into the protocol schemas.
 */
export interface EmulatorLimits {
  /** Answers one interaction token accepts. @defaultValue 5 */
  interactionAnswers: number;
  /** Lifetime of an interaction token in milliseconds. @defaultValue 900000 (15 minutes) */
  interactionTtlMs: number;
  /** Open gateway streams per app. @defaultValue 16 */
  gatewayStreams: number;
  /** Events kept per app for resume, at least (see `retainedEventsMs`). @defaultValue 10000 */
  retainedEvents: number;
  /**
   * Events younger than this (in milliseconds) are kept for resume whatever their number; `0` keeps
   * events by count alone. @defaultValue 86400000 (24 h)
   */
  retainedEventsMs: number;
  /** How long an `Idempotency-Key` is remembered, in milliseconds. @defaultValue 86400000 (24 h) */
  idempotencyTtlMs: number;
  /** Largest request body in bytes. @defaultValue 1048576 (1 MiB) */
  bodyBytes: number;
  /**
   * Bytes a gateway stream may have queued in its socket before the emulator drops it as a slow
   * consumer (the client reconnects and resumes from `Last-Event-ID`). @defaultValue 1048576 (1 MiB)
   */
  streamBufferBytes: number;
  /**
   * Time a client has to send a request's head (request line and headers), in milliseconds; a
   * slower one gets `408 request_timeout`. @defaultValue 10000
   */
  headersTimeoutMs: number;
  /**
   * Time a client has to send a whole request (head and body), in milliseconds; a slower one gets
   * `408 request_timeout`, so no slow client can hold an `Idempotency-Key` in progress for long.
   * Streams and long waits are answers, not requests: they are not bounded by it.
   * @defaultValue 30000
   */
  requestTimeoutMs: number;
}

/** The fixed-window rate limit of the app API. */
export interface RateLimitOptions {
  /** Requests per window per credential. @defaultValue 50 */
  requests: number;
  /** Window length in milliseconds. @defaultValue 1000 */
  windowMs: number;
}

/** Options of {@link createEmulator}. Every field is optional; defaults are in `DEFAULT_EMULATOR_OPTIONS`. */
export interface EmulatorOptions {
  /** SQLite file path, or `':memory:'`. The file's directory is created. @defaultValue `.boardbot/emulator.db` */
  db?: string;
  /** Load the default seed at start (idempotent). @defaultValue true */
  seed?: boolean;
  /** Admin key of the control API. @defaultValue a random key generated at start */
  adminKey?: string;
  /** Token of the seeded `dev-bot` app. @defaultValue {@link DEFAULT_DEV_TOKEN} */
  devToken?: string;
  /**
   * `false` for no logs, pino options, or a pino-compatible logger.
   * @defaultValue pino at `warn` level to stderr
   */
  logger?: false | LoggerOptions | Logger;
  /** Rate limit of the app API. @defaultValue `{ requests: 50, windowMs: 1000 }` */
  rateLimit?: Partial<RateLimitOptions>;
  /** Interval of the gateway's `: keep-alive` comment when a stream is idle. @defaultValue 15000 */
  keepAliveMs?: number;
  /** Clock in epoch milliseconds: token expiry, idempotency TTL, retention, rate windows, timestamps. @defaultValue `Date.now` */
  now?: () => number;
  /** Overrides of operational limits. @defaultValue `{}` */
  limits?: Partial<EmulatorLimits>;
  /**
   * `Host` names accepted besides the loopback ones (`localhost`, `127.0.0.1`, `[::1]`, and the
   * listen address), any port; `'*'` accepts every name. An emulator listening on loopback refuses
   * other names (a DNS-rebinding page sends its own) with `400 bad_request`; one listening beyond
   * loopback accepts any name unless this is given.
   * @defaultValue undefined
   */
  allowedHosts?: readonly string[];
}

/** The options after defaults are applied. */
export interface ResolvedEmulatorOptions {
  db: string;
  seed: boolean;
  adminKey: string | undefined;
  devToken: string;
  logger: false | LoggerOptions | Logger;
  rateLimit: RateLimitOptions;
  keepAliveMs: number;
  now: () => number;
  limits: EmulatorLimits;
  allowedHosts: readonly string[] | undefined;
}

/** Default operational limits: the contract's (`LIMITS`), the slow-consumer bound and the slow-client timeouts. */
export const DEFAULT_EMULATOR_LIMITS = {
  interactionAnswers: LIMITS.interactionAnswers,
  interactionTtlMs: LIMITS.interactionTtlMs,
  gatewayStreams: LIMITS.gatewayStreams,
  retainedEvents: LIMITS.retainedEvents,
  retainedEventsMs: LIMITS.retainedEventsMs,
  idempotencyTtlMs: LIMITS.idempotencyTtlMs,
  bodyBytes: LIMITS.bodyBytes,
  streamBufferBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
} as const satisfies Required<EmulatorLimits>;

/** Defaults of {@link EmulatorOptions}; `adminKey` is generated at start when not given. */
export const DEFAULT_EMULATOR_OPTIONS = {
  db: DEFAULT_DB_PATH,
  seed: true,
  adminKey: undefined,
  devToken: DEFAULT_DEV_TOKEN,
  logger: { level: 'warn' },
  rateLimit: { requests: LIMITS.rateLimitRequests, windowMs: LIMITS.rateLimitWindowMs },
  keepAliveMs: LIMITS.keepAliveMs,
  now: Date.now,
  limits: DEFAULT_EMULATOR_LIMITS,
  allowedHosts: undefined,
} as const satisfies ResolvedEmulatorOptions;

/** Applies the defaults to `options`. */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedEmulatorOptions {
  const d = DEFAULT_EMULATOR_OPTIONS;
  return {
    db: options.db ?? d.db,
    seed: options.seed ?? d.seed,
    adminKey: options.adminKey,
    devToken: options.devToken ?? d.devToken,
    logger: options.logger ?? d.logger,
    rateLimit: { ...d.rateLimit, ...options.rateLimit },
    keepAliveMs: options.keepAliveMs ?? d.keepAliveMs,
    now: options.now ?? d.now,
    limits: { ...d.limits, ...options.limits },
    allowedHosts: options.allowedHosts,
  };
}
