import { LuaScript, NOW_MS } from './lua-script.js';

// The app token's window, shared: the same rules as @boardbot/rest's BucketState (a probe opens each
// window, answers only lower what is left, slots in flight are subtracted), on Redis's clock.
// Hash fields: limit ('inf' when the server sends none), remaining, reset_at, blocked_until, gen
// (counts windows), probe_until (a probe is in flight until then). The slots set holds every reserved
// slot not yet settled, with when it lapses (a replica that died holding one).

/**
 * Reserves up to ARGV[1] slots: KEYS bucket, slots; ARGV count, slot prefix, slot ttl ms, probe ms.
 * Returns { granted, wait ms, limit or '', blocked (1 after a 429), generation }.
 */
export const RESERVE = new LuaScript(`
${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local s = redis.call('HMGET', KEYS[1], 'limit', 'remaining', 'reset_at', 'blocked_until', 'gen', 'probe_until')
local limit = s[1]
local remaining = tonumber(s[2]) or 0
local resetAt = tonumber(s[3]) or 0
local blocked = tonumber(s[4]) or 0
local gen = tonumber(s[5]) or 0
local probeUntil = tonumber(s[6]) or 0
local granted = 0
if now < blocked then return { 0, blocked - now, limit or '', 1, gen } end
if limit == 'inf' then
  granted = tonumber(ARGV[1])
elseif (not limit) or now >= resetAt then
  if probeUntil > now then return { 0, 5, limit or '', 0, gen } end
  gen = gen + 1
  granted = 1
  redis.call('HSET', KEYS[1], 'gen', gen, 'remaining', 0, 'probe_until', now + tonumber(ARGV[4]))
else
  if remaining <= 0 then return { 0, resetAt - now, limit, 0, gen } end
  granted = math.min(tonumber(ARGV[1]), remaining)
  redis.call('HSET', KEYS[1], 'remaining', remaining - granted)
end
for i = 1, granted do
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[2] .. ':' .. i .. ':' .. gen)
end
redis.call('PEXPIRE', KEYS[1], 86400000)
redis.call('PEXPIRE', KEYS[2], 86400000)
return { granted, 0, limit or '', 0, gen }`);

/**
 * Settles a slot: KEYS bucket, slots; ARGV slot id, its generation, kind (`answer`, `none`: an answer
 * without rate-limit headers, `lost`: no answer), limit, remaining, reset delay ms.
 */
export const SETTLE = new LuaScript(`
${NOW_MS}
redis.call('ZREM', KEYS[2], ARGV[1])
local s = redis.call('HMGET', KEYS[1], 'gen', 'probe_until', 'limit', 'remaining', 'reset_at')
if tonumber(ARGV[2]) ~= (tonumber(s[1]) or 0) then return 0 end
local probe = (tonumber(s[2]) or 0) > 0
redis.call('HSET', KEYS[1], 'probe_until', 0)
if ARGV[3] == 'lost' then return 1 end
if ARGV[3] == 'none' then
  if not s[3] then redis.call('HSET', KEYS[1], 'limit', 'inf') end
  return 1
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local inflight = redis.call('ZCARD', KEYS[2])
local delay = math.max(0, tonumber(ARGV[6]))
local resetAt = now + delay + 5
local left = math.max(0, tonumber(ARGV[5]) - inflight)
redis.call('HSET', KEYS[1], 'limit', ARGV[4])
if probe then
  redis.call('HSET', KEYS[1], 'remaining', left, 'reset_at', resetAt)
else
  if left < (tonumber(s[4]) or 0) then redis.call('HSET', KEYS[1], 'remaining', left) end
  if resetAt < (tonumber(s[5]) or 0) then redis.call('HSET', KEYS[1], 'reset_at', resetAt) end
end
return 1`);

/** Holds every replica's calls after a 429: KEYS bucket; ARGV wait ms. */
export const BLOCK = new LuaScript(`
${NOW_MS}
local untilAt = now + tonumber(ARGV[1])
local s = redis.call('HMGET', KEYS[1], 'blocked_until', 'reset_at')
if untilAt > (tonumber(s[1]) or 0) then redis.call('HSET', KEYS[1], 'blocked_until', untilAt) end
redis.call('HSET', KEYS[1], 'remaining', 0)
if (tonumber(s[2]) or 0) < untilAt then redis.call('HSET', KEYS[1], 'reset_at', untilAt) end
return 1`);

/**
 * Takes one use of a sliding cooldown window: KEYS window; ARGV window ms, uses, use id. A use taken
 * again under the same id (the event handled again) is allowed without counting twice. Returns 0, or
 * the ms until the next use is allowed.
 */
export const TAKE_COOLDOWN = new LuaScript(`
${NOW_MS}
local ms = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ms)
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then return 0 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + ms - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ms)
return 0`);

/**
 * Registers a command set and says which one should be registered: KEYS sets, seen, synced; ARGV
 * set hash, how long a set stays live without a replica running it (ms). The winner is the set first
 * seen most recently among the sets some live replica runs: a new deploy's set wins as its first
 * replica starts, an old replica never takes it back, and a set no replica runs any more drops out (a
 * rollback re-registers the old set as new). Returns { winner, hash last synced or '' }.
 */
export const COMMAND_SETS = new LuaScript(`
${NOW_MS}
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]))
for _, h in ipairs(stale) do
  redis.call('HDEL', KEYS[1], h)
  redis.call('ZREM', KEYS[2], h)
end
redis.call('HSETNX', KEYS[1], ARGV[1], now)
redis.call('ZADD', KEYS[2], now, ARGV[1])
local all = redis.call('HGETALL', KEYS[1])
local best, bestAt = ARGV[1], -1
for i = 1, #all, 2 do
  local at = tonumber(all[i + 1])
  if at > bestAt or (at == bestAt and all[i] > best) then
    best = all[i]
    bestAt = at
  end
end
return { best, redis.call('GET', KEYS[3]) or '' }`);
