import type { Message as BoardMessage } from '@boardbot/protocol';
import type { RestClient } from '@boardbot/rest';
import type { FetchOptions } from 'chat';

/**
 * A thread's messages, oldest first, found by reading the board back from its newest message to the
 * thread's first (or `maxScan` messages, whichever comes first): a message is in the thread when its
 * chain of replies leads to the first message. Deleted messages are left out.
 * @param rest - lists the board's messages
 * @param boardId - the board
 * @param rootId - the thread's first message
 * @param maxScan - most messages read
 */
export async function scanThread(
  rest: RestClient,
  boardId: string,
  rootId: string,
  maxScan: number,
): Promise<BoardMessage[]> {
  const read: BoardMessage[] = [];
  for await (const m of rest.iterateMessages(boardId, { max: maxScan })) {
    read.push(m);
    if (m.id === rootId) break;
  }
  const byId = new Map(read.map((m) => [m.id, m]));
  const inThread = new Map<string, boolean>([[rootId, true]]);
  const member = (m: BoardMessage): boolean => {
    const known = inThread.get(m.id);
    if (known !== undefined) return known;
    const parent = m.reply_to === null ? undefined : byId.get(m.reply_to);
    const is = parent !== undefined && member(parent);
    inThread.set(m.id, is);
    return is;
  };
  return read.filter((m) => m.deleted_at === null && member(m)).reverse();
}

/**
 * A board's top-level messages (those that reply to nothing: each is a thread's first), oldest first,
 * among its newest `maxScan`; deleted ones left out.
 * @param rest - lists the board's messages
 * @param boardId - the board
 * @param maxScan - most messages read
 */
export async function scanChannel(rest: RestClient, boardId: string, maxScan: number): Promise<BoardMessage[]> {
  const top: BoardMessage[] = [];
  for await (const m of rest.iterateMessages(boardId, { max: maxScan })) {
    if (m.reply_to === null && m.deleted_at === null) top.push(m);
  }
  return top.reverse();
}

/** One page of messages, and the cursor of the next. */
export interface Page {
  messages: BoardMessage[];
  nextCursor?: string;
}

/**
 * One page of `all` (oldest first) as Chat SDK pages history: backward (the default) takes the newest
 * `limit` before the cursor, forward the oldest `limit` after it; the cursor is a message's `seq`, and
 * each page is in reading order.
 * @param all - the messages, oldest first
 * @param options - Chat SDK's fetch options
 */
export function pageOf(all: readonly BoardMessage[], options: FetchOptions = {}): Page {
  const limit = Math.max(1, options.limit ?? 50);
  const cursor = options.cursor === undefined ? undefined : Number(options.cursor);
  if (options.direction === 'forward') {
    const after = cursor === undefined ? all : all.filter((m) => m.seq > cursor);
    const messages = after.slice(0, limit);
    const last = messages.at(-1);
    return after.length > limit && last ? { messages, nextCursor: String(last.seq) } : { messages };
  }
  const before = cursor === undefined ? all : all.filter((m) => m.seq < cursor);
  const messages = before.slice(-limit);
  const first = messages[0];
  return before.length > limit && first ? { messages, nextCursor: String(first.seq) } : { messages };
}
