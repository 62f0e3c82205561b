import type { Message as BoardMessage } from '@boardbot/protocol';
import type { RestClient } from './client.js';
import { threadIn } from './thread-scan.js';

// The platform has no thread and no search endpoint: these read a stated number of a board's newest
// messages and look in them. The MCP server's tools and core's board kit for a model both read
// through them, so a thread or a search means the same thing (and costs the same) in both.

/** What {@link findThread} found. */
export interface FoundThread {
  /** Whether the message was among the messages read. */
  found: boolean;
  /** The thread's first message as far as the scan went (its root, when `complete`). */
  rootId?: string;
  /** Whether the thread's real first message was read (it replies to nothing). */
  complete: boolean;
  /** How many messages were read. */
  scanned: number;
  /** The thread's messages, oldest first, deleted ones left out; empty when not found. */
  messages: BoardMessage[];
}

/**
 * The thread a message belongs to: its first message and every reply to it or to its replies, found
 * among a board's newest `maxScan` messages (an old thread may come back without its start:
 * `complete` says).
 * @param rest - lists the board's messages
 * @param boardId - the board
 * @param messageId - any message of the thread
 * @param maxScan - most messages read
 */
export async function findThread(
  rest: Pick<RestClient, 'iterateMessages'>,
  boardId: string,
  messageId: string,
  maxScan: number,
): Promise<FoundThread> {
  const read: BoardMessage[] = [];
  for await (const m of rest.iterateMessages(boardId, { max: maxScan })) read.push(m);
  const byId = new Map(read.map((m) => [m.id, m]));
  // Up the chain of replies to the first message read: the thread's root, or as far as the scan went.
  let root = byId.get(messageId);
  const seen = new Set<string>();
  while (root?.reply_to && byId.has(root.reply_to) && !seen.has(root.id)) {
    seen.add(root.id);
    root = byId.get(root.reply_to);
  }
  if (!root) return { found: false, complete: false, scanned: read.length, messages: [] };
  return {
    found: true,
    rootId: root.id,
    complete: root.reply_to === null,
    scanned: read.length,
    messages: threadIn(read, root.id),
  };
}

/** What {@link searchMessages} found. */
export interface SearchResult {
  /** How many messages were read (at most the scan bound: fewer when the board has fewer). */
  scanned: number;
  /** The matching messages, newest first, at most `limit`. */
  matches: BoardMessage[];
  /** Whether the scan stopped at `limit` matches before reading `maxScan` messages. */
  more: boolean;
}

/**
 * The messages among a board's newest `maxScan` whose text contains `text` (case-insensitive,
 * deleted ones left out), newest first: a search by scanning, since the platform has none.
 * @param rest - lists the board's messages
 * @param boardId - the board
 * @param text - what to look for
 * @param bounds - `maxScan`: most messages read; `limit`: most matches kept
 */
export async function searchMessages(
  rest: Pick<RestClient, 'iterateMessages'>,
  boardId: string,
  text: string,
  bounds: { maxScan: number; limit: number },
): Promise<SearchResult> {
  const wanted = text.toLocaleLowerCase();
  const matches: BoardMessage[] = [];
  let scanned = 0;
  for await (const m of rest.iterateMessages(boardId, { max: bounds.maxScan })) {
    scanned++;
    if (m.deleted_at !== null || !(m.content ?? '').toLocaleLowerCase().includes(wanted)) continue;
    matches.push(m);
    if (matches.length >= bounds.limit) return { scanned, matches, more: true };
  }
  return { scanned, matches, more: false };
}
