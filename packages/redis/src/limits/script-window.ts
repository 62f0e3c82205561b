import { randomUUID } from 'node:crypto';
import { rateLimitWindowId, type SharedRateLimit } from '@boardbot/rest';
import type { Redis } from 'ioredis';
import { openConnection } from '../connection.js';
import { RedisUnavailableError } from '../errors.js';
import { bucketKeys } from '../keys.js';
import { redactRedisUrl, resolveRedisOptions } from '../options.js';
import { RedisRateLimit } from './rate-limit.js';

/** What {@link redisRateLimit} takes: the bot's Redis, token and API URL. */
export interface RedisRateLimitOptions {
  /** The Redis the bot's replicas share (`redis://` or `rediss://`). */
  url: string;
  /** The app token the bot runs as. */
  token: string;
  /** The app API's base URL, written exactly as the bot's `apiUrl` (the window is named from both). */
  apiUrl: string;
  /** The bot's `keyPrefix` on Redis. @defaultValue `'boardbot'` */
  keyPrefix?: string;
}

/** A rate-limit window shared with a bot's replicas, for a `RestClient` of a script or a dashboard. */
export interface RedisRateLimitWindow extends SharedRateLimit {
  /** Closes its Redis connection (after the client's last call). */
  close(): Promise<void>;
}

/**
 * The app token's rate-limit window that a bot's replicas share on Redis, for another client posting
 * as the same app (a script, a dashboard): give it to `new RestClient({ sharedRateLimit })`, and the
 * client reserves each call's slot in the same window, so the bot and the script together never draw
 * a 429. It connects at its first call.
 *
 * @param options - the bot's Redis URL, token, API URL and key prefix
 * @example
 * const window = redisRateLimit({ url: process.env.BOARDBOT_REDIS_URL!, token, apiUrl });
 * const rest = new RestClient({ token, baseUrl: apiUrl, sharedRateLimit: window });
 * await rest.sendMessage(boardId, { content: 'Release 1.4 is out' });
 * await rest.close();
 * await window.close();
 */
export function redisRateLimit(options: RedisRateLimitOptions): RedisRateLimitWindow {
  // Checked as the bot's own options are (the URL, the prefix).
  const { url, keyPrefix } = resolveRedisOptions(
    { url: options.url, ...(options.keyPrefix !== undefined && { keyPrefix: options.keyPrefix }) },
    {},
  );
  const client: Redis = openConnection(url);
  const keys = bucketKeys(keyPrefix, rateLimitWindowId(options.apiUrl, options.token));
  // Slots are named after their holder: a script is one more replica of the window, with an id of its own.
  const replicaId = `script-${randomUUID().slice(0, 8)}`;
  let connecting: Promise<void> | undefined;
  const window = new RedisRateLimit(() => ({ client, keys, replicaId }));
  const connected = () =>
    (connecting ??= client.connect().catch((error: unknown) => {
      client.disconnect();
      throw new RedisUnavailableError(redactRedisUrl(url), error);
    }));
  return {
    reserve: async (count) => {
      await connected();
      return window.reserve(count);
    },
    settle: (slot, info) => window.settle(slot, info),
    block: (waitMs) => window.block(waitMs),
    close: async () => {
      if (connecting) await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
