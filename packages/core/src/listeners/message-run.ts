import { randomUUID } from 'node:crypto';
import type { Logger, Message, UserProfile } from '@boardbot/protocol';
import type { EventMeta } from '../kernel/event.js';
import type { AuthorCache } from './authors.js';

/** What the runs a message starts share: their correlation id, logger and the author's profile. */
export interface MessageRunStart {
  correlationId: string;
  /** Names the event, its correlation id, the message and its board (and the caller's fields). */
  log: Logger;
  /** The author's profile; null for a webhook's message or when it cannot be read. */
  author: UserProfile | null;
}

/**
 * Starts the runs of one message (its listeners', or its text command's): one correlation id, one
 * logger, and the author read once, through the cache, with the event's trace.
 * @param log - the bot's logger
 * @param authors - the author cache
 * @param event - the event's metadata
 * @param message - the message
 * @param fields - more fields for the logger (a text command's name)
 */
export async function startMessageRun(
  log: Logger,
  authors: AuthorCache,
  event: EventMeta,
  message: Message,
  fields: Record<string, unknown> = {},
): Promise<MessageRunStart> {
  const correlationId = randomUUID();
  const runLog = log.child({
    event_id: event.id,
    correlation_id: correlationId,
    message_id: message.id,
    board_id: message.board_id,
    ...fields,
  });
  const requestOptions = { requestId: correlationId, logger: runLog, traceContext: event.trace };
  const author = message.author === null ? null : await authors.get(message.author, runLog, requestOptions);
  return { correlationId, log: runLog, author };
}
