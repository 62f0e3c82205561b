import { EditMessageBody, LIMITS, ListMessagesQuery, messageBodyIssues, SendMessageBody } from '@boardbot/protocol';
import type { FastifyInstance } from 'fastify';
import { assertNoIssues } from '../http/validation.js';
import { runIdempotent } from '../idempotency/idempotent.js';
import { createMessage, deleteMessage, editMessage } from '../platform/messages.js';
import type { Platform } from '../platform/platform.js';
import {
  api,
  appOf,
  BoardParams,
  guardOf,
  MessageParams,
  requireInstalled,
  sendAnswer,
  sendJsonText,
} from './shared.js';

/** Endpoints 4 to 7: list, send, edit and delete messages. */
export function messageRoutes(app: FastifyInstance, p: Platform): void {
  app.get<{ Params: { boardId: string }; Querystring: ListMessagesQuery }>(
    api('/boards/:boardId/messages'),
    { config: { auth: 'app' }, schema: { params: BoardParams, querystring: ListMessagesQuery } },
    (request, reply) => {
      const { boardId } = request.params;
      requireInstalled(p, appOf(request), boardId);
      const { before, limit = LIMITS.listDefault } = request.query;
      // Tombstones stay in the list (CONTRACT), so cursors stay stable.
      const page = p.store.messagePage(boardId, limit, before);
      return sendJsonText(reply, 200, `{"messages":[${page.join(',')}]}`);
    },
  );

  app.post<{ Params: { boardId: string }; Body: SendMessageBody }>(
    api('/boards/:boardId/messages'),
    { config: { auth: 'app', idempotent: true }, schema: { params: BoardParams, body: SendMessageBody } },
    (request, reply) => {
      const bot = appOf(request);
      const { boardId } = request.params;
      assertNoIssues(messageBodyIssues(request.body));
      requireInstalled(p, bot, boardId);
      const answer = runIdempotent(p, guardOf(request), (out) => {
        const { json } = createMessage(p, out, { boardId, author: bot.bot_user_id, ...request.body });
        return { status: 200, body: json };
      });
      return sendAnswer(reply, answer);
    },
  );

  app.patch<{ Params: { boardId: string; messageId: string }; Body: EditMessageBody }>(
    api('/boards/:boardId/messages/:messageId'),
    { config: { auth: 'app', idempotent: true }, schema: { params: MessageParams, body: EditMessageBody } },
    (request, reply) => {
      const bot = appOf(request);
      const { boardId, messageId } = request.params;
      requireInstalled(p, bot, boardId);
      // CONTRACT: PATCH honours Idempotency-Key exactly as POST does, in the same transaction.
      const answer = runIdempotent(p, guardOf(request), (out) => {
        const { json } = editMessage(p, out, boardId, messageId, request.body.content, { userId: bot.bot_user_id });
        return { status: 200, body: json };
      });
      return sendAnswer(reply, answer);
    },
  );

  app.delete<{ Params: { boardId: string; messageId: string } }>(
    api('/boards/:boardId/messages/:messageId'),
    { config: { auth: 'app' }, schema: { params: MessageParams } },
    (request, reply) => {
      const bot = appOf(request);
      const { boardId, messageId } = request.params;
      requireInstalled(p, bot, boardId);
      p.write((out) => deleteMessage(p, out, boardId, messageId, { userId: bot.bot_user_id }));
      return reply.code(204).send();
    },
  );
}
