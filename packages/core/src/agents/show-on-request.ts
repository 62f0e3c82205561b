import { apiCodeOf } from '../kernel/api-code.js';
import type { BotRest } from '../kernel/ports.js';

/**
 * Edits an approval request message to show its outcome. A request someone deleted has nothing left
 * to show (`404 unknown_message`): the decision stands and the write it allowed goes on, so that
 * refusal is not an error.
 * @param rest - the client that posted the request
 * @param boardId - its board
 * @param id - the request message
 * @param content - the outcome's text
 * @param idempotencyKey - the edit's key, so an edit asked again is replayed @defaultValue none
 */
export async function showOnRequest(
  rest: Pick<BotRest, 'editMessage'>,
  boardId: string,
  id: string,
  content: string,
  idempotencyKey?: string,
): Promise<void> {
  try {
    await rest.editMessage(boardId, id, { content }, idempotencyKey === undefined ? undefined : { idempotencyKey });
  } catch (error) {
    if (apiCodeOf(error) !== 'unknown_message') throw error;
  }
}
