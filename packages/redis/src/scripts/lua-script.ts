import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

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
   */
  async run(client: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return client.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

/** Lua: the Redis server's time, in milliseconds (every replica's clock may differ; Redis's is one). */
export const NOW_MS = `local __t = redis.call('TIME')
local now = tonumber(__t[1]) * 1000 + math.floor(tonumber(__t[2]) / 1000)`;
