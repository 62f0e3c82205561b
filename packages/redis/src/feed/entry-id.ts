/**
 * Stream entry ids derived from gateway event ids. CONTRACT: event ids are decimal and strictly
 * increasing per app, so event `N` becomes entry `N-0`: the streams keep the gateway's order, and an
 * event appended twice (a second reader, a replay after a failover) has an id Redis already passed.
 * Messages read back over REST after a gap have no event id; they become `C-1`, `C-2`... after the
 * cursor `C` of the `ready` frame that reported the gap, so they sort after everything before the gap
 * and before every live event after it.
 */

const EVENT_ID = /^\d{1,15}$/;

/**
 * The entry id of a gateway event, or undefined when its id is not a decimal the contract allows.
 * @param eventId - the gateway event id
 */
export function entryIdOf(eventId: string): string | undefined {
  return EVENT_ID.test(eventId) ? `${Number(eventId)}-0` : undefined;
}

/**
 * The entry id of the `k`-th message backfilled after the gap reported at `cursor` (from 1).
 * @param cursor - the `ready` frame's id
 * @param k - the message's place among the backfilled ones
 */
export function backfillEntryId(cursor: string, k: number): string | undefined {
  return EVENT_ID.test(cursor) ? `${Number(cursor)}-${k}` : undefined;
}

/** Parses `ms-seq` into the event id part and the sequence part. */
function parseEntryId(id: string): { ms: number; seq: number } {
  const [ms = '0', seq = '0'] = id.split('-');
  return { ms: Number(ms), seq: Number(seq) };
}

/**
 * The entry id as a string whose byte order is the entry order (zero-padded), for the Lua scripts,
 * which compare strings, and the in-flight set, ordered by member.
 */
export function sortKeyOf(entryId: string): string {
  // Parsed in place, without parseEntryId's array and object: an event's way compares ids a few times.
  const dash = entryId.indexOf('-');
  const ms = Number(dash < 0 ? entryId : entryId.slice(0, dash));
  const seq = dash < 0 ? 0 : Number(entryId.slice(dash + 1));
  return `${String(ms).padStart(16, '0')}-${String(seq).padStart(10, '0')}`;
}

/**
 * The gateway event id to resume after so that the entry `sortKey` is delivered again: the event
 * before it for a gateway event; the gap's cursor for a backfilled message (the gateway cannot send
 * it again: it is still in the stream, or read back by the next backfill).
 */
export function resumeBefore(sortKey: string): string {
  const { ms, seq } = parseEntryId(sortKey);
  return String(seq === 0 ? Math.max(0, ms - 1) : ms);
}

/** The gateway event id of an appended sort key (the resume point when nothing is in flight). */
export function resumeAt(sortKey: string): string {
  return String(parseEntryId(sortKey).ms);
}
