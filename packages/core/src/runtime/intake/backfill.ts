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
  const { limit, log, requestOptions } = options;
  const missed: Message[] = [];
  for (const boardId of boardIds) {
    const floor = marks.lastSeq.get(boardId);
    if (floor !== undefined) log.info({ board_id: boardId, after_seq: floor }, 'backfilling after a known seq');
    else {
      const since = new Date(marks.since).toISOString();
      log.info({ board_id: boardId, since }, 'backfilling from a time: no seq is known for this board');
    }
    const seen = (m: Message) => (floor !== undefined ? m.seq <= floor : Date.parse(m.created_at) < marks.since);
    const found = await readBack(rest, boardId, { seen, limit }, requestOptions);
    if (found.length >= limit) {
      log.warn({ board_id: boardId, limit }, 'backfill limit reached: older missed messages are skipped');
    }
    missed.push(...found);
  }
  return missed;
}

/** Where {@link readBack} reads a board's messages back to, and from. */
export interface ReadBackRange {
  /** Whether a message was seen already: the reading stops at the first one (pages come newest first). */
  seen(message: Message): boolean;
  /** Most messages to keep (the newest ones; tombstones do not count). */
  limit: number;
  /** Read only messages whose `seq` is below this one. @defaultValue from the newest */
  before?: number | undefined;
}

/**
 * Reads a board's messages back over REST, newest first, until one was seen already: the missed ones
 * after a gap, or the ones the intake set aside. Tombstones are left out (a message created and
 * deleted meanwhile has nothing left to handle).
 *
 * @param rest - the REST client
 * @param boardId - the board
 * @param range - where to stop, and where to start
 * @param requestOptions - the calls' request options
 * @returns the messages found, oldest first (the order they were written in)
 */
export async function readBack(
  rest: Pick<BotRest, 'listMessages'>,
  boardId: string,
  range: ReadBackRange,
  requestOptions: RequestOptions,
): Promise<Message[]> {
  const found: Message[] = [];
  let before = range.before;
  for (;;) {
    const query = before === undefined ? { limit: LIMITS.listMax } : { before, limit: LIMITS.listMax };
    const page = await rest.listMessages(boardId, query, requestOptions);
    if (page.length === 0) break;
    for (const m of page) {
      if (range.seen(m) || found.length >= range.limit) return found.reverse();
      if (m.deleted_at === null) found.push(m);
      before = m.seq;
    }
  }
  return found.reverse();
}
