import type { Redis } from 'ioredis';
import { redisErrorCode } from '../connection.js';
import { GROUP } from '../keys.js';
import { fieldOf } from './pending.js';
import type { StreamEntry } from './read-along.js';

/** Creates the group of a partition, reading from its first entry, unless it exists. */
export async function ensureGroup(client: Redis, key: string): Promise<void> {
  try {
    await client.call('XGROUP', 'CREATE', key, GROUP, '0', 'MKSTREAM');
  } catch (error) {
    if (redisErrorCode(error) !== 'BUSYGROUP') throw error;
  }
}

/** Trims a partition below its oldest unacknowledged entry (or its last delivered one, if none). */
export async function trim(client: Redis, key: string): Promise<void> {
  const summary = (await client.call('XPENDING', key, GROUP)) as [number, string | null, string | null, unknown];
  let floor = summary[0] > 0 ? summary[1] : null;
  if (floor === null) {
    const groups = (await client.call('XINFO', 'GROUPS', key)) as string[][];
    const group = groups.find((g) => fieldOf(g, 'name') === GROUP);
    floor = group ? (fieldOf(group, 'last-delivered-id') ?? null) : null;
  }
  if (floor && floor !== '0-0') await client.call('XTRIM', key, 'MINID', floor);
}

/**
 * The streams of an XREAD reply, each with the last entry it returned: the reply is
 * `[[key, entries]...]` over RESP2, a flattened map over RESP3.
 */
export function streamHeads(reply: readonly unknown[]): Map<string, string | undefined> {
  const pairs = Array.isArray(reply[0])
    ? reply.map((r) => r as [unknown, unknown])
    : reply.flatMap((r, i) => (i % 2 === 0 ? [[r, reply[i + 1]] as [unknown, unknown]] : []));
  return new Map(
    pairs.map(([key, entries]) => {
      const list = entries as StreamEntry[];
      return [String(key), list[list.length - 1]?.[0]];
    }),
  );
}
