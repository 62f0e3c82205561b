import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sendNow } from '../connection.js';

/**
 * A Lua script run by its SHA1 (`EVALSHA`), sent whole (`EVAL`) only when Redis does not know it yet,
 * as after a restart. Each script is one atomic step of the shared state.
 */
export class LuaScript {
  private readonly sha: string;

  /** @param source - the Lua source */
  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Runs the script.
   * @param client - the connection
   * @param keys - its keys
   * @param args - its arguments
   * @param options - `now`: send it at once, around auto-pipelining ({@link sendNow})
   */
  async run(
    client: Redis,
    keys: readonly string[],
    args: readonly (string | number)[],
    options: { now?: boolean } = {},
  ): Promise<unknown> {
    const call = (command: 'evalsha' | 'eval', script: string) =>
      options.now
        ? sendNow(client, command, [script, keys.length, ...keys, ...args])
        : client[command](script, keys.length, ...keys, ...args);
    try {
      return await call('evalsha', this.sha);
    } catch (error) {
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return call('eval', this.source);
    }
  }
}

/** Lua: the Redis server's time, in milliseconds (every replica's clock may differ; Redis's is one). */
export const NOW_MS = `local __t = redis.call('TIME')
local now = tonumber(__t[1]) * 1000 + math.floor(tonumber(__t[2]) / 1000)`;
