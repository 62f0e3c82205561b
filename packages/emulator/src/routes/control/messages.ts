import { type EditMessageBody, LIMITS, messageBodyIssues } from '@boardbot/protocol';
import type { FastifyInstance } from 'fastify';
import type { ControlListQuery, PersonMessageBody } from '../../control/schemas/requests.js';
import { validationFailed } from '../../errors.js';
import { assertNoIssues } from '../../http/validation.js';
import { findUser, requireBoard } from '../../platform/directory.js';
import { createMessage, deleteMessage, editMessage } from '../../platform/messages.js';
import type { Platform } from '../../platform/platform.js';
import { sendJsonText } from '../shared.js';
import { controlRoute } from './shared.js';

type MessageParams = { boardId: string; messageId: string };

/** Messages as a person or a webhook; they raise the same gateway events as app messages. */
export function controlMessageRoutes(app: FastifyInstance, p: Platform): void {
  controlRoute<{ Params: { boardId: string }; Querystring: typeof ControlListQuery.static }>(
    app,
    'listMessages',
    (request, reply) => {
      const { boardId } = request.params;
      requireBoard(p, boardId);
      const page = p.store.messagePage(boardId, request.query.limit ?? LIMITS.listDefault, request.query.before);
      return sendJsonText(reply, 200, `{"messages":[${page.join(',')}]}`);
    },
  );

  controlRoute<{ Params: { boardId: string }; Body: typeof PersonMessageBody.static }>(
    app,
    'postMessage',
    (request, reply) => {
      const { boardId } = request.params;
      const { user_id, webhook_name, ...body } = request.body;
      if ((user_id === undefined) === (webhook_name === undefined)) {
        throw validationFailed([{ path: '/', message: 'Expected exactly one of user_id or webhook_name' }]);
      }
      assertNoIssues(messageBodyIssues(body));
      requireBoard(p, boardId);
      if (user_id !== undefined) {
        findUser(p, user_id);
        if (!p.store.boards.isMember(boardId, user_id)) {
          throw validationFailed([{ path: '/user_id', message: 'The user is not a member of the board' }]);
        }
      }
      const author =
        user_id === undefined ? { author: null, webhookName: webhook_name as string } : { author: user_id };
      const { json } = p.write((out) => createMessage(p, out, { boardId, ...author, ...body }));
      return sendJsonText(reply, 200, json);
    },
  );

  controlRoute<{ Params: MessageParams; Body: EditMessageBody }>(app, 'editMessage', (request, reply) => {
    const { boardId, messageId } = request.params;
    requireBoard(p, boardId);
    const { json } = p.write((out) => editMessage(p, out, boardId, messageId, request.body.content, 'admin'));
    return sendJsonText(reply, 200, json);
  });

  controlRoute<{ Params: MessageParams }>(app, 'deleteMessage', (request, reply) => {
    const { boardId, messageId } = request.params;
    requireBoard(p, boardId);
    p.write((out) => deleteMessage(p, out, boardId, messageId, 'admin'));
    return reply.code(204).send();
  });
}
