import type { Message as BoardMessage } from '@boardbot/protocol';
import type { FetchOptions } from 'chat';

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
