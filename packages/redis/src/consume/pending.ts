import type { Redis } from 'ioredis';
import { GROUP } from '../keys.js';

/** An entry taken from the group's pending list. */
export interface PendingEntry {
  id: string;
  /** The event JSON, or undefined when the entry is gone from the stream. */
  payload: string | undefined;
  /** The trace headers of the event's receipt on the reader, as JSON, when it was traced. */
  trace?: string | undefined;
}

const PAGE = 100;

/**
 * The entries of a partition delivered and not acknowledged, idle at least `minIdleMs`, in id order,
 * each claimed for `consumer`, except those `skip` names (this replica runs them right now). XCLAIM,
 * with the same idle bound, claims only entries still idle when it runs; an entry gone from the
 * stream (trimmed after Redis lost data) is dropped from the pending list by Redis itself.
 *
 * @param client - the connection
 * @param key - the partition stream
 * @param minIdleMs - 0 when taking a partition over (its lease guarantees its last owner is gone)
 * @param consumer - this replica's consumer name
 * @param skip - the entries to leave alone
 */
export async function* pendingEntries(
  client: Redis,
  key: string,
  minIdleMs: number,
  consumer: string,
  skip: (id: string) => boolean,
): AsyncGenerator<PendingEntry> {
  let start = '-';
  for (;;) {
    const rows = (await client.call('XPENDING', key, GROUP, 'IDLE', String(minIdleMs), start, '+', String(PAGE))) as [
      string,
      string,
      number,
      number,
    ][];
    const claimable = rows.filter(([id]) => !skip(id));
    if (claimable.length > 0) {
      const entries = (await client.call(
        'XCLAIM',
        key,
        GROUP,
        consumer,
        String(minIdleMs),
        ...claimable.map(([id]) => id),
      )) as ([string, string[]] | null)[];
      for (const entry of entries) {
        if (entry) yield { id: entry[0], payload: fieldOf(entry[1], 'e'), trace: fieldOf(entry[1], 't') };
      }
    }
    if (rows.length < PAGE) return;
    start = `(${rows[rows.length - 1]?.[0]}`;
  }
}

/**
 * A field of a stream entry (`e` the event, `t` its trace headers).
 * @param fields - the entry's fields and values, alternating
 * @param name - the field
 */
export function fieldOf(fields: readonly unknown[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return String(fields[i + 1]);
  return undefined;
}
