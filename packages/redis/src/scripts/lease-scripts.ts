import { LuaScript } from './lua-script.js';

/**
 * Takes a free lease: KEYS lease, fence; ARGV holder, ttl ms. The value is `<token>:<holder>`, the
 * token a fresh number of the bot's fence counter, so a holder that lost its lease and a new one can
 * never hold the same value. Returns the value, or nil when the lease is held.
 */
export const ACQUIRE_LEASE = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local value = redis.call('INCR', KEYS[2]) .. ':' .. ARGV[1]
redis.call('SET', KEYS[1], value, 'PX', ARGV[2])
return value`);

/** Extends a lease still held: KEYS lease; ARGV value, ttl ms. Returns 1, or 0 when it was lost. */
export const RENEW_LEASE = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`);

/** Gives a lease up if still held: KEYS lease; ARGV value. Returns 1, or 0 when it was not held. */
export const RELEASE_LEASE = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`);
