import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '@boardbot/core';
import type { Logger } from '@boardbot/protocol';
import { backoffDelay } from '@boardbot/protocol/http';
import { Command, Redis, ReplyError } from 'ioredis';
import { RedisUnavailableError } from './errors.js';
import type { Keys } from './keys.js';
import { type ResolvedRedisOptions, redactRedisUrl } from './options.js';

/** What every part of a connected replica shares: its connection, its keys, its name, its logger, its clock. */
export interface Connected {
  /** The connection for commands and scripts (auto-pipelined). */
  client: Redis;
  keys: Keys;
  replicaId: string;
  log: Logger;
  /** The bot's clock: every wait and time of the replica is read from it. */
  clock: Clock;
}

/** Resolves after `ms` on `clock`. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/**
 * The code of an error Redis replied with (`NOGROUP`, `BUSYGROUP`, `NOSCRIPT`...: the first word of
 * the reply, which the Redis protocol defines as its error code), or undefined for any other error.
 * @param error - what a command rejected with
 */
export function redisErrorCode(error: unknown): string | undefined {
  if (!(error instanceof ReplyError)) return undefined;
  const message = (error as Error).message;
  // Redis before 7 wraps an error a script's command raised: `ERR Error running script ...: -NOGROUP ...`.
  return /: -([A-Z]+) /.exec(message)?.[1] ?? /^[A-Z]+/.exec(message)?.[0];
}

/**
 * Opens an ioredis connection the way the replica needs it: it connects when asked, reconnects by
 * itself with a short back-off (a restarted Redis is found again within a second), and fails a
 * command at once while disconnected rather than queueing it for ever, so each loop decides what to
 * do about an outage.
 *
 * @param url - the Redis URL
 */
export function openConnection(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    retryStrategy: (times) => Math.min(50 * times, 500),
  });
}

/**
 * Runs `work` again after a Redis failure, with back-off (protocol's `backoffDelay`: 50 ms doubling
 * up to 1 s), until it succeeds or `giveUpMs` passed on `clock`.
 * @param clock - the bot's clock
 * @param work - one attempt
 * @param giveUpMs - how long to keep trying
 * @returns whether it succeeded
 */
export async function persist(clock: Clock, work: () => Promise<unknown>, giveUpMs: number): Promise<boolean> {
  const end = clock.now() + giveUpMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return true;
    } catch {
      if (clock.now() >= end) return false;
      await sleep(clock, backoffDelay({ attempt, baseMs: 50, maxMs: 1000, jitter: 0, random: 0 }));
    }
  }
}

/**
 * Sends a command at once, around auto-pipelining (which holds every command until the event loop's
 * check phase, to batch it with others): on a connection that is up, the command is in the kernel's
 * socket buffer when this returns. For the commands on an event's way to its handler, when nothing
 * else would share their batch.
 *
 * @param client - the connection
 * @param name - the command
 * @param args - its arguments (keys are prefixed as the connection's other commands are)
 */
export function sendNow(client: Redis, name: string, args: readonly (string | number)[]): Promise<unknown> {
  const { keyPrefix } = client.options;
  // Replies as strings, as the connection's own command methods give them. The command copies `args`.
  const options = keyPrefix === undefined ? AS_STRINGS : { ...AS_STRINGS, keyPrefix };
  return client.sendCommand(new Command(name, args as (string | number)[], options)) as Promise<unknown>;
}

const AS_STRINGS: ConstructorParameters<typeof Command>[2] = { replyEncoding: 'utf8' };

/**
 * Opens the command connection of a replica (and, with `blocking`, its duplicate for blocking reads),
 * named by the `replicaId` option or {@link defaultReplicaId}, logging to the `logger` option or `log`.
 * @param o - the options in force
 * @param log - the bot's or host's logger
 * @param blocking - whether to open a connection for blocking reads too
 */
export async function openReplica(o: ResolvedRedisOptions, log: Logger, blocking: boolean) {
  const client = (o.connect ?? openConnection)(o.url);
  const replicaId = o.replicaId ?? defaultReplicaId();
  const replicaLog = (o.logger ?? log).child({ replica: replicaId });
  const reads = blocking ? client.duplicate() : undefined;
  for (const c of [client, reads]) if (c) watchErrors(c, replicaLog);
  try {
    await client.connect();
    await reads?.connect();
  } catch (error) {
    client.disconnect();
    reads?.disconnect();
    throw new RedisUnavailableError(redactRedisUrl(o.url), error);
  }
  return { client, blocking: reads, replicaId, log: replicaLog };
}

/** `<hostname>-<pid>-<random>`, safe as a consumer name and a lease holder (no colon). */
export function defaultReplicaId(): string {
  const host =
    hostname()
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .slice(0, 60) || 'host';
  return `${host}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** ioredis reports connection errors as events; logged by code, every fiftieth, never by message. */
export function watchErrors(client: Redis, log: Logger): void {
  let seen = 0;
  client.on('error', (error: Error & { code?: string }) => {
    if (seen++ % 50 === 0) log.warn({ code: error.code ?? 'unknown' }, 'Redis connection error: reconnecting');
  });
}
