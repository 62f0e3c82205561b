import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisErrorCode, sendNow } from '../connection.js';

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
   * Runs the script. One array carries its SHA1 (or source), keys and arguments to the command, and
   * no async frame wraps it: on an event's way to its handler every array and promise counts.
   * @param client - the connection
   * @param keys - its keys
   * @param args - its arguments
   * @param options - `now`: send it at once, around auto-pipelining ({@link sendNow})
   */
  run(
    client: Redis,
    keys: readonly string[],
    args: readonly (string | number)[],
    options: { now?: boolean } = {},
  ): Promise<unknown> {
    const now = options.now === true;
    // Sized once: grown a push at a time, it would be copied as it grows.
    const argv = new Array<string | number>(2 + keys.length + args.length);
    argv[0] = this.sha;
    argv[1] = keys.length;
    for (let i = 0; i < keys.length; i++) argv[2 + i] = keys[i] as string;
    for (let i = 0; i < args.length; i++) argv[2 + keys.length + i] = args[i] as string | number;
    return send(client, 'evalsha', argv, now).catch((error: unknown) => {
      if (redisErrorCode(error) !== 'NOSCRIPT') throw error;
      argv[0] = this.source;
      return send(client, 'eval', argv, now);
    });
  }
}

function send(client: Redis, command: 'evalsha' | 'eval', argv: (string | number)[], now: boolean): Promise<unknown> {
  return now ? sendNow(client, command, argv) : client[command](...(argv as [string, number]));
}

/** Lua: the Redis server's time, in milliseconds (every replica's clock may differ; Redis's is one). */
export const NOW_MS = `local __t = redis.call('TIME')
local now = tonumber(__t[1]) * 1000 + math.floor(tonumber(__t[2]) / 1000)`;
