import type { Member } from '@boardbot/protocol';
import { ApiError, InvalidArgumentError } from '@boardbot/rest';
import type { BotRest } from '../kernel/ports.js';

/**
 * A board's members, read through the app's client, or undefined when the platform refuses the
 * board (not found, forbidden: the app is not on it, not a uuid): a tool acting for a person opens
 * only the boards that person is on. A failure of the call (a timeout, the network) is thrown as it is.
 * @param rest - the app's client
 * @param boardId - the board
 */
export function boardMembers(rest: BotRest, boardId: string): Promise<Member[] | undefined> {
  return rest.listMembers(boardId).catch((error: unknown) => {
    if ((error instanceof ApiError && error.status < 500) || error instanceof InvalidArgumentError) return undefined;
    throw error;
  });
}
