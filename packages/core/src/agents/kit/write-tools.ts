import { LIMITS } from '@boardbot/protocol/runtime';
import type { Tool } from 'ai';
import { BOARD, type KitReadDeps, kitTool } from './read-tools.js';

type Input = Record<string, unknown>;

/**
 * The kit's write tools: post on a board (a reply, by default to the asking message), edit or delete
 * one of the app's own messages (the platform refuses another's: the tool's error). Each writes only
 * on a board the asking person is a member of, counts against the turn's `maxWrites` (refused past
 * it, whether or not the platform took the earlier ones) and takes the turn's next key.
 * @param deps - the turn, where it was asked, the bounds, the AI SDK
 * @param needsApproval - whether each asks for a person's approval first (the AI SDK's flag)
 */
export function writeTools(deps: KitReadDeps, needsApproval: boolean): Record<string, Tool<Input, unknown>> {
  const { turn, here, ai } = deps;
  const boardOf = (input: Input) => (typeof input.board_id === 'string' ? input.board_id : here.boardId);
  const CONTENT = { type: 'string', minLength: 1, maxLength: LIMITS.contentLength, description: 'The text' };
  const MESSAGE = { type: 'string', description: "One of the app's own messages" };
  const approval = { needsApproval };
  return {
    send_message: kitTool(
      ai,
      'Posts a message as the app on a board the asking person is on. By default it replies to the asking ' +
        'message; `reply_to: null` posts on its own.',
      {
        board_id: BOARD,
        content: CONTENT,
        reply_to: { type: ['string', 'null'], description: 'The message it replies to' },
      },
      async (input) => {
        const boardId = boardOf(input);
        await turn.open('send_message', boardId);
        const idempotencyKey = turn.nextWriteKey('send_message');
        // A reply to the asking message only on its board: elsewhere the platform would refuse it.
        const replyTo =
          input.reply_to === undefined ? (boardId === here.boardId ? here.messageId : null) : input.reply_to;
        const body = { content: String(input.content), ...(typeof replyTo === 'string' && { replyTo }) };
        const sent = await turn.rest.sendMessage(boardId, body, { idempotencyKey });
        return { message_id: sent.id, board_id: sent.board_id };
      },
      { required: ['content'], ...approval },
    ),
    edit_message: kitTool(
      ai,
      "Changes the text of one of the app's own messages (another's is refused).",
      { board_id: BOARD, message_id: MESSAGE, content: CONTENT },
      async (input) => {
        const boardId = boardOf(input);
        await turn.open('edit_message', boardId);
        const idempotencyKey = turn.nextWriteKey('edit_message');
        const content = String(input.content);
        const edited = await turn.rest.editMessage(boardId, String(input.message_id), { content }, { idempotencyKey });
        return { message_id: edited.id, edited: true };
      },
      { required: ['message_id', 'content'], ...approval },
    ),
    delete_message: kitTool(
      ai,
      "Deletes one of the app's own messages (another's is refused; deleting it again changes nothing).",
      { board_id: BOARD, message_id: MESSAGE },
      async (input) => {
        const boardId = boardOf(input);
        await turn.open('delete_message', boardId);
        // Counted as a write; a delete carries no key (the platform's delete is idempotent).
        turn.nextWriteKey('delete_message');
        await turn.rest.deleteMessage(boardId, String(input.message_id));
        return { message_id: input.message_id, deleted: true };
      },
      { required: ['message_id'], ...approval },
    ),
  };
}
