import type { Redis } from 'ioredis';
import { LuaScript, NOW_MS } from '../scripts/lua-script.js';

// Dead letters hold the event as it was appended: a message's text, a person's name and id. They are
// its only copy (the dead-letter write deletes the event's entry from its partition stream: see
// DEAD_LETTER), kept only as long as someone may look into a failure (`deadLetterRetentionMs`), by
// two means, both on the Redis server's clock (the entry ids are its time, so no replica's clock matters):
// - each write trims the letters older than the retention and sets the stream to expire once its
//   newest letter is that old (so a stream no replica looks after any more goes too);
// - each replica's housekeeping trims them again (`trimDeadLetters`), so an old letter goes within
//   seconds even when no new one comes.

/**
 * Lua run by the dead-letter write after its `XADD` (with `now` and the stream as `KEYS[6]` in
 * scope): trims the letters older than `retention` (an ARGV index) and sets the stream's expiry.
 * @param retention - the ARGV slot holding the retention in ms
 */
export function expireDeadLettersLua(retention: string): string {
  return `redis.call('XTRIM', KEYS[6], 'MINID', string.format('%d', now - tonumber(${retention})))
redis.call('PEXPIRE', KEYS[6], ${retention})`;
}

/**
 * Trims the letters older than the retention from a dead-letter stream: KEYS the stream; ARGV the
 * retention in ms. Returns how many went.
 */
export const TRIM_DEAD_LETTERS = new LuaScript(`
${NOW_MS}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('XTRIM', KEYS[1], 'MINID', string.format('%d', now - tonumber(ARGV[1])))`);

/**
 * Removes the dead letters older than `retentionMs` (Redis's clock) from the stream `key`.
 * @param client - the replica's command connection
 * @param key - the dead-letter stream
 * @param retentionMs - how long a dead letter is kept
 * @returns how many were removed
 */
export async function trimDeadLetters(client: Redis, key: string, retentionMs: number): Promise<number> {
  return Number(await TRIM_DEAD_LETTERS.run(client, [key], [retentionMs]));
}
