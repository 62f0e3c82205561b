import { LIMITS } from '@boardbot/protocol/runtime';
import { Type } from '@sinclair/typebox';
import { messageShape } from './shapes.js';
import { type BoardTool, defineTool, Id } from './tool.js';

/**
 * An idempotency key an agent may give a write: the same key within 24 hours replays the first write
 * instead of making a second (CONTRACT). Without one, each call of the tool is a new write (its own
 * retries inside the server reuse one key, so a lost answer is not written twice), and an agent that
 * calls the tool again writes again.
 */
export const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '^[\\x21-\\x7E]+$',
    description:
      'Makes the write safe to repeat: the same key within 24 hours gives back the first write instead of a ' +
      'second one. Use one per intended write (e.g. "release-note-1.4"). Without it, calling again writes again.',
  }),
);
const Content = Type.String({ minLength: 1, maxLength: LIMITS.contentLength, description: 'The text' });
const NO_NAMES: ReadonlyMap<string, string> = new Map();

/** The tools that write, as the app, on its boards: offered only when the server allows writes. */
export const WRITE_TOOLS: readonly BoardTool[] = [
  defineTool({
    name: 'send_message',
    description: "Posts a message on a board as the app, or a reply to one of the board's messages.",
    input: Type.Object(
      {
        board_id: Id('The board'),
        content: Content,
        reply_to: Type.Optional(Id('The message it replies to, on the same board')),
        idempotency_key: IdempotencyKey,
      },
      { additionalProperties: false },
    ),
    writes: true,
    hints: { readOnlyHint: false, destructiveHint: false },
    call: async ({ board_id, content, reply_to, idempotency_key }, { rest }) => {
      const body = { content, ...(reply_to !== undefined && { replyTo: reply_to }) };
      const sent = await rest.sendMessage(board_id, body, {
        ...(idempotency_key && { idempotencyKey: idempotency_key }),
      });
      return messageShape(sent, NO_NAMES);
    },
  }),
  defineTool({
    name: 'edit_message',
    description: "Changes the text of one of the app's own messages (others' messages cannot be edited).",
    input: Type.Object(
      { board_id: Id('The board'), message_id: Id('The message'), content: Content, idempotency_key: IdempotencyKey },
      { additionalProperties: false },
    ),
    writes: true,
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    call: async ({ board_id, message_id, content, idempotency_key }, { rest }) => {
      const options = idempotency_key ? { idempotencyKey: idempotency_key } : {};
      return messageShape(await rest.editMessage(board_id, message_id, { content }, options), NO_NAMES);
    },
  }),
  defineTool({
    name: 'delete_message',
    description: "Deletes one of the app's own messages (deleting it again changes nothing).",
    input: Type.Object({ board_id: Id('The board'), message_id: Id('The message') }, { additionalProperties: false }),
    writes: true,
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    call: async ({ board_id, message_id }, { rest }) => {
      await rest.deleteMessage(board_id, message_id);
      return { deleted: true, message_id };
    },
  }),
];
