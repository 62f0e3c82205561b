import type { Message as BoardMessage } from '@boardbot/protocol';
import type { RestClient } from './client.js';

// The platform lists a board's messages, not a thread's (a reply chain): these read a bounded span of
// the board back and keep the thread's messages. Chat SDK's adapter and the MCP server read threads
// through them.

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
  return threadIn(read, rootId);
}

/**
 * The messages of `read` (a board's, newest first) whose chain of replies leads to `rootId`, the
 * root included, oldest first; deleted ones left out (the chain goes on through their tombstones).
 * @param read - messages of one board, as listed
 * @param rootId - the thread's first message
 */
export function threadIn(read: readonly BoardMessage[], rootId: string): BoardMessage[] {
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
