import { InvalidThreadIdError } from './errors.js';

/**
 * A board thread's parts. A board is a Chat SDK channel (`board:<boardId>`); a reply chain is a thread
 * (`board:<boardId>:<rootId>`), named by its first message, the one that replies to nothing.
 */
export interface BoardThreadId {
  /** The board (Chat SDK's channel). */
  boardId: string;
  /** The thread's first message; absent for the board itself (a channel). */
  rootId?: string | undefined;
}

/** The adapter's name, the first part of every id it makes: register it as `adapters: { board }`. */
export const ADAPTER_NAME = 'board';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id of a board thread, or of the board (the channel) when `rootId` is absent. UUIDs hold no
 * colon, so the parts need no encoding.
 * @param id - the board and the thread's first message
 */
export function encodeThreadId(id: BoardThreadId): string {
  return id.rootId === undefined ? `${ADAPTER_NAME}:${id.boardId}` : `${ADAPTER_NAME}:${id.boardId}:${id.rootId}`;
}

/**
 * The parts of a thread or channel id made by {@link encodeThreadId}.
 * @param threadId - the id
 * @throws InvalidThreadIdError for any other string
 */
export function decodeThreadId(threadId: string): BoardThreadId {
  const [name, boardId, rootId, ...rest] = threadId.split(':');
  const valid =
    name === ADAPTER_NAME &&
    boardId !== undefined &&
    UUID.test(boardId) &&
    (rootId === undefined || UUID.test(rootId)) &&
    rest.length === 0;
  if (!valid) throw new InvalidThreadIdError(threadId);
  return rootId === undefined ? { boardId } : { boardId, rootId };
}

/**
 * The channel (board) of a thread id.
 * @param threadId - a thread or channel id
 */
export function channelIdOf(threadId: string): string {
  return encodeThreadId({ boardId: decodeThreadId(threadId).boardId });
}
