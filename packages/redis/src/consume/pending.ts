import type { Redis } from 'ioredis';
import { GROUP } from '../keys.js';

/** An entry taken from the group's pending list. */
export interface PendingEntry {
  id: string;
  /** The event JSON, or undefined when the entry is gone from the stream. */
  payload: string | undefined;
  /** Deliveries so far, this one included. */
  deliveries: number;
  /** Delivered `maxDeliveries` times already: not claimed, to be dead-lettered. */
  exhausted?: boolean;
}

const PAGE = 100;

/**
 * The entries of a partition delivered and not acknowledged, idle at least `minIdleMs`, in id order,
 * each claimed for `consumer` (which counts a delivery), except those delivered `maxDeliveries` times
 * already and those `skip` names (this replica runs them right now). XPENDING gives the delivery
 * counts; XCLAIM, with the same idle bound, claims only entries still idle when it runs.
 *
 * @param client - the connection
 * @param key - the partition stream
 * @param minIdleMs - 0 when taking a partition over (its lease guarantees its last owner is gone)
 * @param consumer - this replica's consumer name
 * @param rules - the delivery bound, and the entries to leave alone
 */
export async function* pendingEntries(
  client: Redis,
  key: string,
  minIdleMs: number,
  consumer: string,
  rules: { maxDeliveries: number; skip: (id: string) => boolean },
): AsyncGenerator<PendingEntry> {
  let start = '-';
  for (;;) {
    const rows = (await client.call('XPENDING', key, GROUP, 'IDLE', String(minIdleMs), start, '+', String(PAGE))) as [
      string,
      string,
      number,
      number,
    ][];
    const wanted = rows.filter(([id]) => !rules.skip(id));
    const claimable = wanted.filter(([, , , count]) => count < rules.maxDeliveries);
    const claimed = new Map<string, string | undefined>();
    if (claimable.length > 0) {
      const entries = (await client.call(
        'XCLAIM',
        key,
        GROUP,
        consumer,
        String(minIdleMs),
        ...claimable.map(([id]) => id),
      )) as ([string, string[]] | null)[];
      for (const entry of entries) if (entry) claimed.set(entry[0], payloadOf(entry[1]));
    }
    for (const [id, , , count] of wanted) {
      if (count >= rules.maxDeliveries) {
        const found = (await client.call('XRANGE', key, id, id)) as [string, string[]][];
        yield { id, payload: found[0] ? payloadOf(found[0][1]) : undefined, deliveries: count, exhausted: true };
      } else if (claimed.has(id)) {
        yield { id, payload: claimed.get(id), deliveries: count + 1 };
      }
    }
    if (rows.length < PAGE) return;
    start = `(${rows[rows.length - 1]?.[0]}`;
  }
}

function payloadOf(fields: readonly string[]): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 'e') return fields[i + 1];
  return undefined;
}
