import type { Logger } from '@boardbot/protocol';
import { Command, Redis } from 'ioredis';
import type { Keys } from './keys.js';

/** What every part of a connected replica shares: its connection, its keys, its name, its logger. */
export interface Connected {
  /** The connection for commands and scripts (auto-pipelined). */
  client: Redis;
  keys: Keys;
  replicaId: string;
  log: Logger;
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
 * Runs `work` again after a Redis failure, with back-off, until it succeeds or `giveUpMs` passed.
 * @param work - one attempt
 * @param giveUpMs - how long to keep trying
 * @returns whether it succeeded
 */
export async function persist(work: () => Promise<unknown>, giveUpMs: number): Promise<boolean> {
  const end = Date.now() + giveUpMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await work();
      return true;
    } catch {
      if (Date.now() >= end) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
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
