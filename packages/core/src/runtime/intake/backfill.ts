import type { Logger, Message } from '@boardbot/protocol';
import { LIMITS } from '@boardbot/protocol/runtime';
import type { BotRest, RequestOptions } from '../../kernel/ports.js';

/** Where the bot was on each board when events were lost. */
export interface BackfillMarks {
  /** Per board, the `seq` up to which every message was handled (the stored position's marks). */
  lastSeq: ReadonlyMap<string, number>;
  /** For boards without a mark: messages created at or after this time (ms) were not seen. */
  since: number;
}

/**
 * After a gateway gap, lists the messages the bot missed on each board over REST, oldest first.
 * Boards with a known `seq` are read back to it; others back to `since`; each board's starting point
 * is logged. Tombstones are skipped (a message created and deleted during the gap has nothing left
 * to handle).
 *
 * @param rest - the REST client
 * @param boardIds - the boards of the `ready` frame
 * @param marks - where to stop on each board
 * @param options - most messages per board, logger, request options
 */
export async function collectMissedMessages(
  rest: Pick<BotRest, 'listMessages'>,
  boardIds: readonly string[],
  marks: BackfillMarks,
  options: { limit: number; log: Logger; requestOptions: RequestOptions },
): Promise<Message[]> {
  const missed: Message[] = [];
  for (const boardId of boardIds) {
    const floor = marks.lastSeq.get(boardId);
    if (floor !== undefined) options.log.info({ board_id: boardId, after_seq: floor }, 'backfilling after a known seq');
    else {
      const since = new Date(marks.since).toISOString();
      options.log.info({ board_id: boardId, since }, 'backfilling from a time: no seq is known for this board');
    }
    const found: Message[] = [];
    let before: number | undefined;
    let done = false;
    while (!done) {
      const query = before === undefined ? { limit: LIMITS.listMax } : { before, limit: LIMITS.listMax };
      const page = await rest.listMessages(boardId, query, options.requestOptions);
      if (page.length === 0) break;
      for (const m of page) {
        const seen = floor !== undefined ? m.seq <= floor : Date.parse(m.created_at) < marks.since;
        if (seen || found.length >= options.limit) {
          done = true;
          break;
        }
        if (m.deleted_at === null) found.push(m);
        before = m.seq;
      }
      if (found.length >= options.limit) {
        options.log.warn(
          { board_id: boardId, limit: options.limit },
          'backfill limit reached: older missed messages are skipped',
        );
        done = true;
      }
    }
    // Pages come newest first; handlers see the board's messages in the order they were written.
    missed.push(...found.reverse());
  }
  return missed;
}
