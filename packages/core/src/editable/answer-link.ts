import type { EventMeta } from '../kernel/event.js';

/**
 * Who answers a message: the text commands share one owner (an edit may name another command, whose
 * answer then replaces the first one's), each editable message listener is its own (its label).
 */
export const TEXT_COMMANDS = 'text';

/**
 * The record key (in `AnswerRecord`, stored as `boardbot.answer:msg:…`) of the answers `owner` gave
 * to the message `boardId`/`messageId`: apart from a streamed answer's keys, which are `bb1:…`.
 *
 * @param boardId - the message's board
 * @param messageId - the message
 * @param owner - {@link TEXT_COMMANDS}, or an editable listener's label
 */
export function linkKey(boardId: string, messageId: string, owner: string): string {
  return `msg:${boardId}:${messageId}:${owner}`;
}

const DECIMAL = /^\d+$/;

/**
 * Whether a run of an event comes after the link was written by a later event, and must not touch
 * it: a message's create or edit event handled again after a crash, once a later edit (or the
 * deletion) of the same message already ran. Gateway ids are decimals, strictly increasing per app.
 * A message read back by a backfill is answered only when no run linked it yet; a live event after
 * a backfill's run (whose link holds its `backfill:<id>`) comes after it (the events before the gap
 * are gone).
 *
 * @param by - the event that wrote the link last
 * @param event - the event about to run: its id and origin
 */
export function superseded(by: string | undefined, event: Pick<EventMeta, 'id' | 'origin'>): boolean {
  if (by === undefined || by === event.id) return false;
  if (event.origin !== 'live') return true;
  if (!DECIMAL.test(by)) return false;
  return by.length > event.id.length || (by.length === event.id.length && by > event.id);
}
