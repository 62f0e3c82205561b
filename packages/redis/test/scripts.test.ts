import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { trimDeadLetters } from '../src/dead-letters/retention.js';
import { sortKeyOf } from '../src/feed/entry-id.js';
import { readPosition } from '../src/feed/position.js';
import { GROUP, Keys } from '../src/keys.js';
import { Lease } from '../src/lease/lease.js';
import { ACK, APPEND, DEAD_LETTER } from '../src/scripts/feed-scripts.js';
import { COMMAND_SETS, TAKE_COOLDOWN } from '../src/scripts/limit-scripts.js';
import { useRedis } from './support/redis.js';

// The Lua scripts against a real redis-server: each is one atomic step of the replicas' shared state.

const redis = useRedis();
const DAY_MS = 24 * 60 * 60 * 1000;
const freshKeys = () => new Keys('test', randomUUID(), 'http://127.0.0.1:1/api/v1');

/** Appends event `id` (a gateway id) to partition 0 under the lease value `value`. */
function append(keys: Keys, value: string, id: number, known = '') {
  const entry = `${id}-0`;
  return APPEND.run(
    redis().client,
    [keys.reader, keys.appended, keys.inflight, keys.partition(0)],
    [value, entry, sortKeyOf(entry), JSON.stringify({ name: 'x', id: String(id), data: {} }), known],
  );
}

/** Fresh keys with partition 0's group created, and the reader lease held by 'r'. */
async function partitionWithReader() {
  const keys = freshKeys();
  const { client } = redis();
  await client.xgroup('CREATE', keys.partition(0), GROUP, '0', 'MKSTREAM');
  const lease = new Lease(client, keys.reader, keys.fence, 'r', 60_000);
  await lease.acquire();
  return { keys, client, lease };
}

describe('the reader lease and the append script', () => {
  it('gives a lease to one holder at a time, each time under a new fencing token', async () => {
    const keys = freshKeys();
    const a = new Lease(redis().client, keys.reader, keys.fence, 'a', 60_000);
    const b = new Lease(redis().client, keys.reader, keys.fence, 'b', 60_000);
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    const first = a.token as number;
    await a.release();
    expect(await b.acquire()).toBe(true);
    expect(b.token).toBe(first + 1);
    expect(b.value).toBe(`${first + 1}:b`);
  });

  it('appends under the lease, refuses a deposed holder, and takes an id Redis passed as already appended', async () => {
    const keys = freshKeys();
    const { client } = redis();
    const old = new Lease(client, keys.reader, keys.fence, 'old', 100);
    await old.acquire();
    const oldValue = old.value as string;
    expect(await append(keys, oldValue, 5)).toBe('ok');
    // The old holder is paused past its lease; another replica takes it.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const current = new Lease(client, keys.reader, keys.fence, 'new', 60_000);
    expect(await current.acquire()).toBe(true);
    expect(await append(keys, oldValue, 6)).toBe('deposed');
    expect(await append(keys, current.value as string, 5)).toBe('duplicate');
    expect(await append(keys, current.value as string, 4)).toBe('duplicate');
    expect(await append(keys, current.value as string, 6)).toBe('ok');
    const entries = (await client.xrange(keys.partition(0), '-', '+')) as [string, string[]][];
    expect(entries.map(([id, fields]) => [id, fields[3]])).toEqual([
      ['5-0', oldValue],
      ['6-0', current.value],
    ]);
  });

  it('says lost when Redis holds less than the reader saw appended (its data was lost)', async () => {
    const keys = freshKeys();
    const lease = new Lease(redis().client, keys.reader, keys.fence, 'r', 60_000);
    await lease.acquire();
    const value = lease.value as string;
    expect(await append(keys, value, 10)).toBe('ok');
    await redis().client.del(keys.appended);
    expect(await append(keys, value, 11, sortKeyOf('10-0'))).toBe('lost');
  });

  it('reads the entry along with its append for the partition lease holder, and only for it', async () => {
    const { keys, client, lease: reader } = await partitionWithReader();
    const owner = new Lease(client, keys.partitionLease(0), keys.fence, 'r', 60_000);
    await owner.acquire();
    const appendAlong = (id: number, partitionLease: string) => {
      const entry = `${id}-0`;
      return APPEND.run(
        client,
        [keys.reader, keys.appended, keys.inflight, keys.partition(0), keys.partitionLease(0)],
        [reader.value as string, entry, sortKeyOf(entry), `{"id":"${id}"}`, '', '', partitionLease, GROUP, 'r'],
      );
    };
    // The entry read is the one appended: the reply says so, without carrying it back.
    expect(await appendAlong(20, owner.value as string)).toBe('read');
    // A stale lease value (the partition moved to another replica): appended, not read.
    expect(await appendAlong(21, `${owner.token}:someone-else`)).toBe('ok');
    // A duplicate is not read again.
    expect(await appendAlong(20, owner.value as string)).toBe('duplicate');
    const pending = (await client.xpending(keys.partition(0), GROUP, '-', '+', 10)) as [string, string][];
    expect(pending.map(([id, consumer]) => [id, consumer])).toEqual([['20-0', 'r']]);
    // The next read along takes the oldest entry not handed out yet: 21, then 22.
    expect(await appendAlong(22, owner.value as string)).toEqual([
      'ok',
      [['21-0', ['e', '{"id":"21"}', 'r', reader.value]]],
    ]);
  });
});

describe('the resume point', () => {
  it('is the event before the oldest unacknowledged one, and after the last appended once all are acknowledged', async () => {
    const { keys, client, lease } = await partitionWithReader();
    for (const id of [3, 7, 9]) await append(keys, lease.value as string, id);
    expect((await readPosition(client, keys, 0)).eventId).toBe('2');
    await client.xreadgroup('GROUP', GROUP, 'c', 'STREAMS', keys.partition(0), '>');
    const ack = (id: string, board = '', seq = 0) =>
      ACK.run(
        client,
        [keys.partition(0), keys.inflight, keys.boards, keys.meta, keys.attempts],
        [GROUP, id, sortKeyOf(id), board, seq],
      );
    // Finished out of order: the point waits for the oldest.
    await ack('7-0', 'b1', 4);
    expect((await readPosition(client, keys, 0)).eventId).toBe('2');
    await ack('3-0', 'b1', 2);
    const middle = await readPosition(client, keys, 0);
    expect(middle.eventId).toBe('8');
    expect(middle.boards).toEqual({ b1: 4 });
    await ack('9-0');
    expect((await readPosition(client, keys, 0)).eventId).toBe('9');
    expect(await client.xpending(keys.partition(0), GROUP)).toEqual([0, null, null, null]);
  });

  it('dead-letters an event: out of the pending list and of the in-flight set, with why, in the dead-letter stream', async () => {
    const { keys, client, lease } = await partitionWithReader();
    await append(keys, lease.value as string, 12);
    await client.xreadgroup('GROUP', GROUP, 'c', 'STREAMS', keys.partition(0), '>');
    await DEAD_LETTER.run(
      client,
      [keys.partition(0), keys.inflight, keys.boards, keys.meta, keys.attempts, keys.dead],
      [GROUP, '12-0', sortKeyOf('12-0'), '', 0, 0, 5, 'its handlers failed 5 times', '{"name":"x"}', 100, DAY_MS],
    );
    expect((await readPosition(client, keys, 0)).eventId).toBe('12');
    const dead = (await client.xrange(keys.dead, '-', '+')) as [string, string[]][];
    expect(dead).toHaveLength(1);
    expect(dead[0]?.[1]).toEqual([
      'partition',
      '0',
      'entry',
      '12-0',
      'deliveries',
      '5',
      'reason',
      'its handlers failed 5 times',
      'event',
      '{"name":"x"}',
    ]);
  });
});

// Issue 40 finding 8: the dead letter went with its retention, but the partition stream kept the same
// event (a person's text) until a later trim passed it. The dead-letter write deletes it there, and
// only it: older entries may still be pending for their boards, and their claims need them.
describe('a dead-lettered entry in its partition stream', () => {
  it('is deleted with its acknowledgement, leaving every other entry, the group and the resume point as they were', async () => {
    const { keys, client, lease } = await partitionWithReader();
    for (const id of [11, 12, 13]) await append(keys, lease.value as string, id);
    await client.xreadgroup('GROUP', GROUP, 'c', 'STREAMS', keys.partition(0), '>');
    const entries = (await client.xrange(keys.partition(0), '-', '+')) as [string, string[]][];
    const groupOf = async () => {
      const [group] = (await client.xinfo('GROUPS', keys.partition(0))) as unknown[][];
      const field = (name: string) => group?.[(group?.indexOf(name) ?? -2) + 1];
      return { name: field('name'), lastDelivered: field('last-delivered-id'), consumers: field('consumers') };
    };
    const group = await groupOf();

    // 12 fails for good while 11 (another board's, slow) and 13 are still running.
    await DEAD_LETTER.run(
      client,
      [keys.partition(0), keys.inflight, keys.boards, keys.meta, keys.attempts, keys.dead],
      [GROUP, '12-0', sortKeyOf('12-0'), '', 0, 0, 5, 'its handlers failed 5 times', '{"name":"x"}', 100, DAY_MS],
    );
    const left = (await client.xrange(keys.partition(0), '-', '+')) as [string, string[]][];
    expect(left).toEqual(entries.filter(([id]) => id !== '12-0'));
    expect(left.map(([id]) => id)).toEqual(['11-0', '13-0']);
    const pending = (await client.xpending(keys.partition(0), GROUP, '-', '+', 10)) as [string, string][];
    expect(pending.map(([id, consumer]) => [id, consumer])).toEqual([
      ['11-0', 'c'],
      ['13-0', 'c'],
    ]);
    expect(await groupOf()).toEqual(group);
    expect(group.lastDelivered).toBe('13-0');
    // The resume point waits for 11, as it would have with 12 acknowledged.
    expect((await readPosition(client, keys, 0)).eventId).toBe('10');
    // The next entry is appended, read and acknowledged as before.
    await append(keys, lease.value as string, 14);
    const next = (await client.xreadgroup('GROUP', GROUP, 'c', 'STREAMS', keys.partition(0), '>')) as [
      string,
      [string, string[]][],
    ][];
    expect(next[0]?.[1].map(([id]) => id)).toEqual(['14-0']);
  });
});

describe('shared cooldowns and command sets', () => {
  it('counts uses in a sliding window, and a use taken again by the same event once', async () => {
    const key = freshKeys().cooldown('Roll.run:user:u1');
    const take = (use: string) => TAKE_COOLDOWN.run(redis().client, [key], [60_000, 2, use]);
    expect(await take('event-1')).toBe(0);
    expect(await take('event-1')).toBe(0);
    expect(await take('event-2')).toBe(0);
    const wait = Number(await take('event-3'));
    expect(wait).toBeGreaterThan(59_000);
    expect(wait).toBeLessThanOrEqual(60_000);
  });

  it('makes the set first seen last the one to register, and drops a set no replica runs any more', async () => {
    const keys = freshKeys();
    const register = (hash: string, liveMs = 60_000) =>
      COMMAND_SETS.run(
        redis().client,
        [keys.commandSets, keys.commandSetsSeen, keys.commandsSynced],
        [hash, liveMs],
      ) as Promise<[string, string]>;
    expect((await register('v1'))[0]).toBe('v1');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await register('v2'))[0]).toBe('v2');
    // An old replica restarting during the rolling deploy does not take it back.
    expect((await register('v1'))[0]).toBe('v2');
    // v2's replicas are all gone (not seen within liveMs): a rollback registers v1 again.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await register('v1', 20))[0]).toBe('v1');
  });
});

// Issue 29 finding 7: dead letters (a person's message whole) were kept forever. Entry ids are the
// Redis server's time, so letters of another age are written with explicit ids instead of waiting.
describe('the retention of dead letters', () => {
  /** Redis's clock, in ms. */
  async function serverNow(): Promise<number> {
    const [seconds, micros] = await redis().client.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  /** Dead letters written `agesMs` ago (oldest first), as a replica would have written them. */
  async function lettersAged(key: string, agesMs: number[]): Promise<string[]> {
    const now = await serverNow();
    const ids: string[] = [];
    for (const age of agesMs) {
      ids.push(String(await redis().client.xadd(key, `${now - age}-0`, 'event', `{"aged":${age}}`)));
    }
    return ids;
  }

  it('a dead-letter write removes the letters older than the retention, keeps the younger, and sets the stream to expire', async () => {
    const { keys, client, lease } = await partitionWithReader();
    const [, younger] = await lettersAged(keys.dead, [3 * DAY_MS, DAY_MS / 2]);
    await append(keys, lease.value as string, 12);
    await client.xreadgroup('GROUP', GROUP, 'c', 'STREAMS', keys.partition(0), '>');
    await DEAD_LETTER.run(
      client,
      [keys.partition(0), keys.inflight, keys.boards, keys.meta, keys.attempts, keys.dead],
      [GROUP, '12-0', sortKeyOf('12-0'), '', 0, 0, 5, 'failed', '{"name":"x"}', 100, DAY_MS],
    );
    const left = (await client.xrange(keys.dead, '-', '+')) as [string, string[]][];
    expect(left.map(([id]) => id)).toEqual([younger, expect.any(String)]);
    expect(left[1]?.[1]).toContain('12-0');
    // Once its newest letter is a day old, the whole stream goes, whether or not a replica runs.
    const ttl = await client.pttl(keys.dead);
    expect(ttl).toBeGreaterThan(DAY_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(DAY_MS);
  });

  it("a replica's housekeeping removes the letters older than the retention with no new one", async () => {
    const keys = freshKeys();
    const [, , younger] = await lettersAged(keys.dead, [10 * DAY_MS, 2 * DAY_MS, DAY_MS - 60_000]);
    expect(await trimDeadLetters(redis().client, keys.dead, DAY_MS)).toBe(2);
    expect(((await redis().client.xrange(keys.dead, '-', '+')) as [string, string[]][]).map(([id]) => id)).toEqual([
      younger,
    ]);
    expect(await trimDeadLetters(redis().client, keys.dead, DAY_MS)).toBe(0);
    // A stream that does not exist is left alone (not created).
    expect(await trimDeadLetters(redis().client, freshKeys().dead, DAY_MS)).toBe(0);
    expect(await redis().client.exists(freshKeys().dead)).toBe(0);
  });
});
