import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/platform.js';
import { api, appOf, BoardParams, requireInstalled } from './shared.js';

/** Endpoints 1 to 3: the boards the app is installed on, one board, its members. */
export function boardRoutes(app: FastifyInstance, p: Platform): void {
  app.get(api('/boards'), { config: { auth: 'app' } }, (request) => {
    // CONTRACT: only boards the app is installed on.
    return { boards: p.store.boards.ofUser(appOf(request).bot_user_id) };
  });

  app.get<{ Params: { boardId: string } }>(
    api('/boards/:boardId'),
    { config: { auth: 'app' }, schema: { params: BoardParams } },
    (request) => {
      const { boardId } = request.params;
      requireInstalled(p, appOf(request), boardId);
      return p.store.boards.byId(boardId);
    },
  );

  app.get<{ Params: { boardId: string } }>(
    api('/boards/:boardId/members'),
    { config: { auth: 'app' }, schema: { params: BoardParams } },
    (request) => {
      const { boardId } = request.params;
      requireInstalled(p, appOf(request), boardId);
      return { members: p.store.boards.members(boardId) };
    },
  );
}
