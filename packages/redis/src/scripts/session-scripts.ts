import { LuaScript } from './lua-script.js';

/**
 * Writes a session if its stored version is the one the writer read: KEYS session hash; ARGV
 * expected version, the value as JSON, how long Redis keeps the record (ms; '' keeps it forever).
 * Returns 1 when written, 0 when another writer came first.
 */
export const WRITE_SESSION = new LuaScript(`
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', v + 1, 'value', ARGV[2])
if ARGV[3] == '' then redis.call('PERSIST', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`);
