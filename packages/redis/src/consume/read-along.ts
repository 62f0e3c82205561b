import type { BotEvent } from '@boardbot/core';
import { fieldOf, type PendingEntry } from './pending.js';

/** A stream entry as XREADGROUP returns it: its id, then its fields and values, alternating. */
export type StreamEntry = [id: string, fields: string[]];

/** An entry read for the consumer, with its event when the reader that appended it has it in hand. */
export interface TakenEntry extends PendingEntry {
  event?: BotEvent;
}

/** The entry of a stream entry as XREADGROUP returns it (`e` the event, `t` its trace headers). */
export function takenEntry([id, fields]: StreamEntry): TakenEntry {
  return { id, payload: fieldOf(fields, 'e'), trace: fieldOf(fields, 't') };
}

/**
 * A read of a partition sent along with the append of an event to it, when the replica that reads
 * the gateway also consumes that partition: the append script takes the partition's next entry for
 * this replica's consumer in the same round trip, so the event reaches its handler one round trip
 * after it arrived instead of two.
 */
export interface ReadAlong {
  /** The value this replica holds the partition's lease under: the script reads only under it. */
  lease: string;
  /** This replica's consumer name in the group. */
  consumer: string;
  /**
   * Hands what the read took to the consumer; called once, with undefined when the append failed or
   * read nothing (the consumer's own reads take the entry then).
   */
  take(entries: readonly TakenEntry[] | undefined): void;
}

/** The consumer, as the reader sees it: who can read along with an append. */
export interface ReadsAlong {
  /**
   * A read to send along with an append to `partition`, or undefined when this replica does not
   * consume it right now (not held, being taken over or released, or no room for another entry).
   */
  readAlong(partition: number): ReadAlong | undefined;
  /**
   * Tells the consumer that the reader appended `entryId` (whose sort key is `sortKey`) to `partition`
   * (read along or not): while the reader leads, this is how the consumer learns of new entries,
   * instead of a blocking read.
   */
  appended(partition: number, entryId: string, sortKey: string): void;
  /** Tells the consumer that the reader stopped appending (deposed or stopped): others may append now. */
  unfed(): void;
}
