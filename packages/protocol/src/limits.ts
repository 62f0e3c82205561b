/**
 * Limits of the platform contract (CONTRACT.md "Limits"). The emulator enforces these defaults;
 * the real platform may be configured differently, so clients only use them for early checks.
 */
export const LIMITS = {
  /** Longest message `content`, in characters. */
  contentLength: 4000,
  /** Most embeds on one message. */
  embeds: 10,
  embedTitleLength: 256,
  embedDescriptionLength: 4096,
  embedFields: 25,
  embedFieldNameLength: 256,
  embedFieldValueLength: 1024,
  /** All text of one message's embeds together (titles, descriptions, field names and values). */
  embedTotalText: 6000,
  /** Longest URL accepted in an embed (`url`, `image.url`). */
  urlLength: 2048,
  /** Most commands an app may register. */
  commands: 100,
  commandDescriptionLength: 100,
  /** Most options on one level of a command (the command itself, or one subcommand). */
  optionsPerLevel: 25,
  choices: 25,
  /**
   * Deepest nesting of arrays and objects in the value of an unknown option key (or choice key),
   * which the platform stores verbatim: `{"a":{"b":1}}` nests 2 levels, a scalar 0.
   */
  openOptionValueDepth: 8,
  /** Most bytes of JSON (UTF-8) in the unknown option and choice keys of one command, together. */
  openOptionBytes: 16 * 1024,
  /** Most request body bytes. */
  bodyBytes: 1024 * 1024,
  /** Default and maximum `limit` of the message list. */
  listDefault: 50,
  listMax: 100,
  /** Answers one interaction token accepts (the reply and its follow-ups). */
  interactionAnswers: 5,
  /** Lifetime of an interaction token, in milliseconds (15 minutes). */
  interactionTtlMs: 15 * 60 * 1000,
  /** Default rate limit: requests per window, and the window in milliseconds. */
  rateLimitRequests: 50,
  rateLimitWindowMs: 1000,
  /** Open gateway streams per app. */
  gatewayStreams: 16,
  /** Keep-alive comment interval of the gateway, in milliseconds. */
  keepAliveMs: 15_000,
  /** Events retained per app for resume (at least this many, or 24 h). */
  retainedEvents: 10_000,
  retainedEventsMs: 24 * 60 * 60 * 1000,
  /** How long an `Idempotency-Key` is remembered, in milliseconds. */
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  idempotencyKeyLength: 255,
} as const;

/** Name pattern of commands and command options. */
export const COMMAND_NAME_PATTERN = '^[a-z0-9][a-z0-9_-]{0,31}$';
/** Embed colour pattern (`#RRGGBB`). */
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';
/** Accepted URL shape in embeds: absolute `http(s)` without spaces. */
export const HTTP_URL_PATTERN = '^https?://[^\\s/$.?#][^\\s]*$';
/** Canonical UUID text (any version; the platform issues v4 and v7). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** `Idempotency-Key` header: 1..255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
/** Version of the app API, part of the base path. */
export const API_VERSION = 1;
/** Path prefix of the app API. */
export const API_PREFIX = '/api/v1';
/** Path prefix of the emulator's control API. */
export const CONTROL_PREFIX = '/_emulator/v1';
