import type { CommandDefinition } from '@boardbot/protocol';
import type { RestClient } from '@boardbot/rest';
import { ChatAdapterOptionError } from './errors.js';

/** Options of `createBoardAdapter()`. Every field but the token has a default. */
export interface BoardAdapterOptions {
  /**
   * The app's token; never logged or shown in an error.
   * @defaultValue `process.env.BOARDBOT_TOKEN`
   */
  token?: string | undefined;
  /**
   * The platform's app API (`http(s)://host:port/api/v1`).
   * @defaultValue `process.env.BOARDBOT_API_URL`, else `'http://127.0.0.1:8787/api/v1'` (the emulator)
   */
  baseUrl?: string | undefined;
  /**
   * The slash commands the app registers when Chat initializes the adapter (one `PUT /app/commands`,
   * which keeps the ids of unchanged names). Chat SDK declares no commands, so they are given here;
   * without them, the registered set is left as it is (registered by whoever owns it).
   * @defaultValue undefined (leave the registered commands alone)
   */
  commands?: readonly CommandDefinition[] | undefined;
  /**
   * Most messages a thread or channel read (`fetchMessages`, `fetchChannelMessages`) scans, newest
   * first, looking for the thread's messages: the platform lists a board's messages, not a thread's.
   * Also bounds the scan that finds the thread of a reply whose parent the index does not know.
   * @defaultValue 1000
   */
  maxScan?: number;
  /**
   * Most events handed to Chat and not yet settled (Chat runs handlers of different threads at once).
   * @defaultValue 64
   */
  maxInFlight?: number;
  /**
   * How long the adapter's records live in Chat's state: the message index (which thread a message is
   * in, and whether the bot wrote it) and the markers of events handled out of order.
   * @defaultValue 2_592_000_000 (30 days, Chat's own thread-state lifetime)
   */
  stateTtlMs?: number;
  /**
   * A REST client to use instead of the adapter's own (to share its rate limit with a boardbot bot of
   * the same app in this process); the adapter then does not close it.
   * @defaultValue a `RestClient` of its own, made from `token` and `baseUrl`
   */
  rest?: RestClient | undefined;
}

/** Defaults of {@link BoardAdapterOptions} that have a plain value. */
export const DEFAULT_BOARD_ADAPTER_OPTIONS = {
  baseUrl: 'http://127.0.0.1:8787/api/v1',
  maxScan: 1000,
  maxInFlight: 64,
  stateTtlMs: 30 * 24 * 60 * 60 * 1000,
} as const satisfies Partial<Required<BoardAdapterOptions>>;

/** The options with every default applied and checked. */
export interface ResolvedBoardAdapterOptions {
  /** {@link BoardAdapterOptions.token}, present. */
  token: string;
  /** {@link BoardAdapterOptions.baseUrl}, an http(s) URL. */
  baseUrl: string;
  /** {@link BoardAdapterOptions.commands}. */
  commands: readonly CommandDefinition[] | undefined;
  /** {@link BoardAdapterOptions.maxScan}. */
  maxScan: number;
  /** {@link BoardAdapterOptions.maxInFlight}. */
  maxInFlight: number;
  /** {@link BoardAdapterOptions.stateTtlMs}. */
  stateTtlMs: number;
  /** {@link BoardAdapterOptions.rest}. */
  rest: RestClient | undefined;
}

const positive = (name: string, value: number, max: number): number => {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ChatAdapterOptionError(name, `must be an integer from 1 to ${max} (got ${String(value)})`);
  }
  return value;
};

/**
 * Applies the defaults (the environment's `BOARDBOT_TOKEN` and `BOARDBOT_API_URL` among them, read
 * here and nowhere else) and checks each option.
 * @param options - what the caller gave
 * @param env - the environment to read
 * @throws ChatAdapterOptionError naming the first option that cannot work
 */
export function resolveBoardAdapterOptions(
  options: BoardAdapterOptions = {},
  env: Record<string, string | undefined> = process.env,
): ResolvedBoardAdapterOptions {
  const token = options.token ?? env.BOARDBOT_TOKEN;
  if (token === undefined || token.trim() === '') {
    throw new ChatAdapterOptionError('token', 'is missing: pass createBoardAdapter({ token }) or set BOARDBOT_TOKEN');
  }
  const baseUrl = options.baseUrl ?? env.BOARDBOT_API_URL ?? DEFAULT_BOARD_ADAPTER_OPTIONS.baseUrl;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new ChatAdapterOptionError('baseUrl', 'must be an http(s) URL such as http://127.0.0.1:8787/api/v1');
  }
  return {
    token,
    baseUrl,
    commands: options.commands,
    maxScan: positive('maxScan', options.maxScan ?? DEFAULT_BOARD_ADAPTER_OPTIONS.maxScan, 10_000),
    maxInFlight: positive('maxInFlight', options.maxInFlight ?? DEFAULT_BOARD_ADAPTER_OPTIONS.maxInFlight, 10_000),
    stateTtlMs: positive('stateTtlMs', options.stateTtlMs ?? DEFAULT_BOARD_ADAPTER_OPTIONS.stateTtlMs, 2 ** 31 * 1000),
    rest: options.rest,
  };
}
