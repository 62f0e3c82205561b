import type { Board, BoardList, Member, MemberList, UserProfile } from '@boardbot/protocol';
import type { FastifyInstance } from 'fastify';
import {
  AppBoardParams,
  AppIdParams,
  BoardIdParams,
  BoardUserParams,
  CreateAppBody,
  CreateBoardBody,
  CreateUserBody,
  MemberBody,
  RotateTokenBody,
} from '../../control/schemas/requests.js';
import type { AppInfo, AppList, CreatedApp, UserList } from '../../control/schemas/responses.js';
import {
  createApp,
  createBoard,
  createUser,
  findApp,
  install,
  removeMember,
  requireBoard,
  rotateToken,
  setMember,
  uninstall,
} from '../../platform/directory.js';
import type { Platform } from '../../platform/platform.js';
import { ADMIN, appInfo, ctl, optionalBody } from './shared.js';

type P<T> = { Params: T };
type R<T> = { Reply: T };

/** People, boards, memberships, apps and installs. */
export function controlDirectoryRoutes(app: FastifyInstance, p: Platform): void {
  app.get<R<UserList>>(ctl('/users'), ADMIN, () => ({ users: p.store.users.all() }));
  app.post<{ Body: CreateUserBody } & R<UserProfile>>(
    ctl('/users'),
    { ...ADMIN, schema: { body: CreateUserBody } },
    (request, reply) => {
      reply.code(201);
      return p.write((out) => createUser(p, out, request.body));
    },
  );

  app.get<R<BoardList>>(ctl('/boards'), ADMIN, () => ({ boards: p.store.boards.all() }));
  app.post<{ Body: CreateBoardBody } & R<Board>>(
    ctl('/boards'),
    { ...ADMIN, schema: { body: CreateBoardBody } },
    (request, reply) => {
      reply.code(201);
      return p.write((out) => createBoard(p, out, request.body));
    },
  );

  app.get<P<{ boardId: string }> & R<MemberList>>(
    ctl('/boards/:boardId/members'),
    { ...ADMIN, schema: { params: BoardIdParams } },
    (request) => {
      requireBoard(p, request.params.boardId);
      return { members: p.store.boards.members(request.params.boardId) };
    },
  );
  app.put<P<{ boardId: string; userId: string }> & R<Member>>(
    ctl('/boards/:boardId/members/:userId'),
    { ...ADMIN, schema: { params: BoardUserParams } },
    (request) => {
      const { role = 'member' } = optionalBody(MemberBody, request.body);
      const { boardId, userId } = request.params;
      return p.write((out) => setMember(p, out, boardId, userId, role));
    },
  );
  app.delete<P<{ boardId: string; userId: string }>>(
    ctl('/boards/:boardId/members/:userId'),
    { ...ADMIN, schema: { params: BoardUserParams } },
    (request, reply) => {
      const { boardId, userId } = request.params;
      p.write((out) => removeMember(p, out, boardId, userId));
      return reply.code(204).send();
    },
  );

  app.get<R<AppList>>(ctl('/apps'), ADMIN, () => ({ apps: p.store.apps.all().map((a) => appInfo(p, a)) }));
  app.post<{ Body: CreateAppBody } & R<CreatedApp>>(
    ctl('/apps'),
    { ...ADMIN, schema: { body: CreateAppBody } },
    (request, reply) => {
      const { app: row, token } = p.write((out) => createApp(p, out, request.body));
      // The token is shown this once; the emulator keeps only its SHA-256.
      reply.code(201);
      return { app: appInfo(p, row), token };
    },
  );
  app.post<P<{ appId: string }> & R<CreatedApp>>(
    ctl('/apps/:appId/token'),
    { ...ADMIN, schema: { params: AppIdParams } },
    (request) => {
      const { token: chosen } = optionalBody(RotateTokenBody, request.body);
      const { app: row, token } = p.write((out) => rotateToken(p, out, request.params.appId, chosen));
      // Shown this once, as at creation; the old token is refused from now on.
      return { app: appInfo(p, row), token };
    },
  );
  app.put<P<{ appId: string; boardId: string }> & R<AppInfo>>(
    ctl('/apps/:appId/installs/:boardId'),
    { ...ADMIN, schema: { params: AppBoardParams } },
    (request) => {
      const { appId, boardId } = request.params;
      p.write((out) => install(p, out, appId, boardId));
      return appInfo(p, findApp(p, appId));
    },
  );
  app.delete<P<{ appId: string; boardId: string }> & R<AppInfo>>(
    ctl('/apps/:appId/installs/:boardId'),
    { ...ADMIN, schema: { params: AppBoardParams } },
    (request) => {
      const { appId, boardId } = request.params;
      p.write((out) => uninstall(p, out, appId, boardId));
      return appInfo(p, findApp(p, appId));
    },
  );
}
