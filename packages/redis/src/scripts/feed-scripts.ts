import { expireDeadLettersLua } from '../dead-letters/retention.js';
import { LuaScript, NOW_MS } from './lua-script.js';

/**
 * Appends one event, if the caller still holds the reader's lease: KEYS reader lease, appended,
 * in-flight set, partition stream; ARGV lease value, entry id, sort key, event JSON, the sort key the
 * caller knows was appended last ('' if none), the trace headers of its receipt as JSON ('' if none;
 * stored as the entry's `t` field). The check and the append are one step, so a reader
 * deposed while it was paused cannot append when it wakes up. Returns `ok`, `duplicate` (this event or
 * a later one was appended already), `deposed` (the lease is another's), or `lost` (Redis has less
 * than the caller saw appended: its data was lost, and the reader must resume from the stored point).
 *
 * When the reader consumes the partition itself, it reads along: KEYS adds the partition's lease,
 * ARGV its lease value there, the group and its consumer name. After the append, if that lease is
 * still the caller's, the script takes the partition's oldest undelivered entry for the consumer
 * (as {@link READ} would, one entry) and returns `read` when that entry is the one just appended
 * (the caller has its event in hand: the reply need not carry it back), `{ 'ok', entries }` when it
 * is an older one: the event reaches its handler without a second round trip. A failing read (no
 * group: Redis lost its data) just returns `ok`.
 */
export const APPEND = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'deposed' end
local last = redis.call('GET', KEYS[2])
if ARGV[5] ~= '' and ((not last) or last < ARGV[5]) then return 'lost' end
if last and ARGV[3] <= last then return 'duplicate' end
local fields = { 'e', ARGV[4], 'r', ARGV[1] }
if ARGV[6] and ARGV[6] ~= '' then fields[5] = 't'; fields[6] = ARGV[6] end
local added = redis.pcall('XADD', KEYS[4], ARGV[2], unpack(fields))
if type(added) == 'table' and added.err then return 'duplicate' end
redis.call('ZADD', KEYS[3], 0, ARGV[3])
redis.call('SET', KEYS[2], ARGV[3])
if KEYS[5] and redis.call('GET', KEYS[5]) == ARGV[7] then
  local got = redis.pcall('XREADGROUP', 'GROUP', ARGV[8], ARGV[9], 'COUNT', 1, 'STREAMS', KEYS[4], '>')
  if type(got) == 'table' and not got.err and got[1] and #got[1][2] > 0 then
    if got[1][2][1][1] == added then return 'read' end
    return { 'ok', got[1][2] }
  end
end
return 'ok'`);

/**
 * Records where a first reader starts (the live stream's cursor), if nothing was ever appended:
 * KEYS reader lease, appended; ARGV lease value, sort key. Returns `ok`, `kept` or `deposed`.
 */
export const BASELINE = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'deposed' end
if redis.call('SET', KEYS[2], ARGV[2], 'NX') then return 'ok' end
return 'kept'`);

// The end of an event: acknowledged in its group, out of the in-flight set and the attempt counts,
// its board's mark moved.
const SETTLE = `
${NOW_MS}
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('HDEL', KEYS[5], ARGV[2])
if ARGV[4] ~= '' then
  local mark = tonumber(redis.call('HGET', KEYS[3], ARGV[4]) or '0')
  if tonumber(ARGV[5]) > mark then redis.call('HSET', KEYS[3], ARGV[4], ARGV[5]) end
end
redis.call('HSET', KEYS[4], 'acked_at', now)`;

/**
 * Acknowledges an event whose handlers finished: KEYS partition stream, in-flight set, boards, meta,
 * attempts; ARGV group, entry id, sort key, board id ('' unless a `message.create`), its `seq`.
 */
export const ACK = new LuaScript(`${SETTLE}
return 1`);

/**
 * Moves an event to the dead-letter stream and acknowledges it, so its board moves on: KEYS as
 * {@link ACK} plus the dead-letter stream; ARGV as {@link ACK} plus partition, deliveries, reason,
 * event JSON, the stream's approximate maximum length, its retention in ms.
 *
 * The event leaves its partition stream in the same step (`XDEL` of its entry alone), so the dead
 * letter, kept for its retention, is its only copy: a trim of the partition stops below its oldest
 * pending entry and keeps the last one handed out, so the entry could stay there indefinitely. It is
 * acknowledged first, so no pending list names a deleted entry (the in-flight set, and with it the
 * shared resume point, moves as for any acknowledgement). Only this entry goes: entries before it may
 * still be pending for other boards, and their claims read them; entry ids, the group's last-delivered
 * id and the other entries stay as they were.
 */
export const DEAD_LETTER = new LuaScript(`
redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[10], '*', 'partition', ARGV[6], 'entry', ARGV[2],
  'deliveries', ARGV[7], 'reason', ARGV[8], 'event', ARGV[9])
${SETTLE}
redis.call('XDEL', KEYS[1], ARGV[2])
${expireDeadLettersLua('ARGV[11]')}
return 1`);

/**
 * Reads the resume point: KEYS in-flight set, appended, boards, meta. Returns the lowest sort key in
 * flight (or ''), the last appended (or ''), the boards' marks (flat), and `acked_at` (or '').
 */
export const POSITION = new LuaScript(`
local first = redis.call('ZRANGE', KEYS[1], 0, 0)
return { first[1] or '', redis.call('GET', KEYS[2]) or '', redis.call('HGETALL', KEYS[3]),
  redis.call('HGET', KEYS[4], 'acked_at') or '' }`);

/**
 * One heartbeat of a replica, in one round trip: KEYS members, then the lease of each partition;
 * ARGV replica id ('' to only look), lease ttl ms, then for each partition the value this replica
 * holds its lease under ('' when it holds none). Drops expired members, renews this one and every
 * lease it still holds, and returns the live members, each partition's lease value ('' when free),
 * and for each partition 1 when this replica's lease was renewed, 0 when it was lost (or not held).
 */
export const HEARTBEAT = new LuaScript(`
${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[1] ~= '' then redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1]) end
local owners = {}
local renewed = {}
for i = 2, #KEYS do
  local value = redis.call('GET', KEYS[i]) or ''
  local mine = ARGV[i + 1]
  if mine ~= '' and value == mine then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    renewed[i - 1] = 1
  else
    renewed[i - 1] = 0
  end
  owners[i - 1] = value
end
return { redis.call('ZRANGE', KEYS[1], 0, -1), owners, renewed }`);

/**
 * Reads new entries of a partition for this replica, if it still holds the partition's lease: KEYS
 * partition lease, partition stream; ARGV lease value, group, consumer, count. A replica that lost
 * the lease (paused, cut off) can no longer take entries, so every entry delivered to a replica was
 * delivered while it owned the partition, and its next owner claims it. Returns `{ 'lost' }`,
 * `{ 'ok', entries }`, or `{ 'empty', the stream's last id }` (to wait for what comes after it).
 */
export const READ = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return { 'lost' } end
local got = redis.call('XREADGROUP', 'GROUP', ARGV[2], ARGV[3], 'COUNT', ARGV[4], 'STREAMS', KEYS[2], '>')
if got and got[1] and #got[1][2] > 0 then return { 'ok', got[1][2] } end
local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
return { 'empty', (last[1] and last[1][1]) or '0-0' }`);
