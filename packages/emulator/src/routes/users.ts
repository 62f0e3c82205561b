import { Uuid } from '@boardbot/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform/platform.js';
import { api, appOf } from './shared.js';

const UserParams = Type.Object({ userId: Uuid });

/** Endpoint 8: a user's public profile. */
export function userRoutes(app: FastifyInstance, p: Platform): void {
  app.get<{ Params: { userId: string } }>(
    api('/users/:userId'),
    { config: { auth: 'app' }, schema: { params: UserParams } },
    (request) => {
      const bot = appOf(request).bot_user_id;
      const { userId } = request.params;
      // docs/protocol.md: an app may read users it shares a board with, and its own bot user.
      const visible = userId === bot || p.store.users.shareABoard(bot, userId);
      const user = visible ? p.store.users.byId(userId) : undefined;
      if (!user) throw new PlatformError('unknown_user', 'No user with this id shares a board with the app');
      return user;
    },
  );
}
