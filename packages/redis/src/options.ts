import type { Logger } from '@boardbot/protocol';
import type { Redis } from 'ioredis';
import { RedisOptionError } from './errors.js';

/** Options of `redis()`. Every field has a default. */
export interface RedisScaleOptions {
  /**
   * The Redis to share (`redis://[:password@]host:port[/db]`, or `rediss://` for TLS); never logged
   * with its password.
   * @defaultValue `process.env.BOARDBOT_REDIS_URL`, else `'redis://127.0.0.1:6379'`
   */
  url?: string | undefined;
  /**
   * The first part of every key; the bot's keys then sit under `<prefix>:{<app id>:<platform>}:`.
   * @defaultValue `'boardbot'`
   */
  keyPrefix?: string;
  /**
   * How many streams the events are spread over, by a hash of their ordering key (the board): the
   * most replicas that can work at once. Fixed for a bot once its first replica started (a replica
   * started with another count uses the stored one and says so).
   * @defaultValue 16
   */
  partitions?: number;
  /**
   * How long a lease lasts without renewal (the reader's, each partition's, each replica's
   * membership): the longest a dead or paused replica holds its work before another takes it over.
   * Leases are renewed every third of it.
   * @defaultValue 3000
   */
  leaseMs?: number;
  /**
   * Deliveries of an event whose handlers keep failing (or whose replica keeps dying) before it goes
   * to the dead-letter stream, so that its board moves on.
   * @defaultValue 5
   */
  maxDeliveries?: number;
  /** Most events a replica has read and not finished (across its partitions). @defaultValue 256 */
  prefetch?: number;
  /**
   * The shared backlog's high-water mark: once this many events are appended and not yet handled
   * (acknowledged or dead-lettered) across all partitions, the reader stops reading the gateway; it
   * reads on once half as many are left. Keep it well above replicas × `prefetch`. @defaultValue 10_000
   */
  maxBacklog?: number;
  /**
   * How long a read waits for new events before it looks at its partitions again, in ms; a stop or a
   * partition's release cuts the wait short. @defaultValue 200
   */
  blockMs?: number;
  /** Entries kept in the dead-letter stream (approximately; older ones are trimmed). @defaultValue 10_000 */
  deadLetterMaxLength?: number;
  /**
   * How long a dead letter is kept, in ms (Redis's clock). A dead letter holds the event whole (a
   * person's message text, name and id): it is removed once older than this, within a few
   * heartbeats while a replica runs; with none running, the stream expires this long after its
   * newest letter. @defaultValue 604_800_000 (7 days)
   */
  deadLetterRetentionMs?: number;
  /**
   * This replica's name in Redis (membership, leases, consumer group). Must be unique among the live
   * replicas and contain no `:`.
   * @defaultValue `<hostname>-<pid>-<random>`
   */
  replicaId?: string | undefined;
  /**
   * Where the adapter logs (the bot's logger when `createBot` loads the adapter from
   * `BOARDBOT_REDIS_URL`). @defaultValue the bot's logger, given at start
   */
  logger?: Logger | undefined;
  /**
   * Builds the Redis connections (one for commands, one for blocking reads), for TLS or Sentinel
   * setups; they are closed by the adapter. @defaultValue `new Redis(url, ...)` of ioredis
   */
  connect?: ((url: string) => Redis) | undefined;
}

/** Defaults of {@link RedisScaleOptions} that have a plain value. */
export const DEFAULT_REDIS_OPTIONS = {
  url: 'redis://127.0.0.1:6379',
  keyPrefix: 'boardbot',
  partitions: 16,
  leaseMs: 3000,
  maxDeliveries: 5,
  prefetch: 256,
  maxBacklog: 10_000,
  blockMs: 200,
  deadLetterMaxLength: 10_000,
  deadLetterRetentionMs: 7 * 24 * 60 * 60 * 1000,
} as const satisfies Required<Omit<RedisScaleOptions, 'replicaId' | 'logger' | 'connect'>>;

/** The options in force. */
export type ResolvedRedisOptions = typeof DEFAULT_REDIS_OPTIONS & {
  url: string;
  keyPrefix: string;
  partitions: number;
  leaseMs: number;
  maxDeliveries: number;
  prefetch: number;
  maxBacklog: number;
  blockMs: number;
  deadLetterMaxLength: number;
  deadLetterRetentionMs: number;
  replicaId: string | undefined;
  logger: Logger | undefined;
  connect: ((url: string) => Redis) | undefined;
};

/** Longest `deadLetterRetentionMs`: a year. */
const MAX_RETENTION_MS = 365 * 24 * 60 * 60 * 1000;

/** The bounds of the integer options, checked in this order. */
const INTEGER_BOUNDS = {
  partitions: [1, 1024],
  leaseMs: [300, 600_000],
  maxDeliveries: [1, 1000],
  prefetch: [1, 100_000],
  maxBacklog: [2, 10_000_000],
  blockMs: [1, 60_000],
  deadLetterMaxLength: [1, 10_000_000],
} as const;

const isInt = (n: unknown, low: number, high: number) =>
  Number.isInteger(n) && (n as number) >= low && (n as number) <= high;

/**
 * Fills in the defaults and refuses what cannot work, naming the option.
 * @param options - what the caller gave
 * @param env - the environment's values: this is the package's one read of `process.env`
 * @defaultValue `{ BOARDBOT_REDIS_URL: process.env.BOARDBOT_REDIS_URL }`
 */
export function resolveRedisOptions(
  options: RedisScaleOptions,
  env: { readonly BOARDBOT_REDIS_URL?: string | undefined } = { BOARDBOT_REDIS_URL: process.env.BOARDBOT_REDIS_URL },
): ResolvedRedisOptions {
  const o = {
    ...DEFAULT_REDIS_OPTIONS,
    url: env.BOARDBOT_REDIS_URL || DEFAULT_REDIS_OPTIONS.url,
    replicaId: undefined,
    logger: undefined,
    connect: undefined,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  } as ResolvedRedisOptions;
  if (!/^rediss?:\/\//.test(o.url)) throw new RedisOptionError('url', 'must be a redis:// or rediss:// URL');
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(o.keyPrefix))
    throw new RedisOptionError('keyPrefix', 'must be 1 to 64 of A-Z a-z 0-9 _ . -');
  for (const [name, [low, high]] of Object.entries(INTEGER_BOUNDS)) {
    const value = o[name as keyof typeof INTEGER_BOUNDS];
    if (!isInt(value, low, high)) throw new RedisOptionError(name, `must be an integer from ${low} to ${high}`);
  }
  if (!isInt(o.deadLetterRetentionMs, 1000, MAX_RETENTION_MS)) {
    throw new RedisOptionError(
      'deadLetterRetentionMs',
      `must be an integer from 1000 (1 s) to ${MAX_RETENTION_MS} (1 year)`,
    );
  }
  if (o.replicaId !== undefined && !/^[A-Za-z0-9_.-]{1,100}$/.test(o.replicaId)) {
    throw new RedisOptionError('replicaId', 'must be 1 to 100 of A-Z a-z 0-9 _ . - (no colon)');
  }
  return o;
}

/**
 * A Redis URL as it may be shown: without its user and password.
 * @param url - the configured URL
 */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'redis://(unreadable URL)';
  }
}
