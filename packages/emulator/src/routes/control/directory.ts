import type { FastifyInstance } from 'fastify';
import {
  createApp,
  createBoard,
  createUser,
  findApp,
  findBoard,
  install,
  removeMember,
  setMember,
  uninstall,
} from '../../platform/directory.js';
import type { Platform } from '../../platform/platform.js';
import {
  AppBoardParams,
  BoardIdParams,
  BoardUserParams,
  CreateAppBody,
  CreateBoardBody,
  CreateUserBody,
  MemberBody,
} from './schemas.js';
import { ADMIN, appInfo, ctl, optionalBody } from './shared.js';

type P<T> = { Params: T };

/** People, boards, memberships, apps and installs. */
export function controlDirectoryRoutes(app: FastifyInstance, p: Platform): void {
  app.get(ctl('/users'), ADMIN, () => ({ users: p.store.users.all() }));
  app.post<{ Body: typeof CreateUserBody.static }>(
    ctl('/users'),
    { ...ADMIN, schema: { body: CreateUserBody } },
    (request, reply) => reply.code(201).send(p.write((out) => createUser(p, out, request.body))),
  );

  app.get(ctl('/boards'), ADMIN, () => ({ boards: p.store.boards.all() }));
  app.post<{ Body: typeof CreateBoardBody.static }>(
    ctl('/boards'),
    { ...ADMIN, schema: { body: CreateBoardBody } },
    (request, reply) => reply.code(201).send(p.write((out) => createBoard(p, out, request.body))),
  );

  app.get<P<{ boardId: string }>>(
    ctl('/boards/:boardId/members'),
    { ...ADMIN, schema: { params: BoardIdParams } },
    (request) => {
      findBoard(p, request.params.boardId);
      return { members: p.store.boards.members(request.params.boardId) };
    },
  );
  app.put<P<{ boardId: string; userId: string }>>(
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

  app.get(ctl('/apps'), ADMIN, () => ({ apps: p.store.apps.all().map((a) => appInfo(p, a)) }));
  app.post<{ Body: typeof CreateAppBody.static }>(
    ctl('/apps'),
    { ...ADMIN, schema: { body: CreateAppBody } },
    (request, reply) => {
      const { app: row, token } = p.write((out) => createApp(p, out, request.body));
      // The token is shown this once; the emulator keeps only its SHA-256.
      return reply.code(201).send({ app: appInfo(p, row), token });
    },
  );
  app.put<P<{ appId: string; boardId: string }>>(
    ctl('/apps/:appId/installs/:boardId'),
    { ...ADMIN, schema: { params: AppBoardParams } },
    (request) => {
      const { appId, boardId } = request.params;
      p.write((out) => install(p, out, appId, boardId));
      return appInfo(p, findApp(p, appId));
    },
  );
  app.delete<P<{ appId: string; boardId: string }>>(
    ctl('/apps/:appId/installs/:boardId'),
    { ...ADMIN, schema: { params: AppBoardParams } },
    (request) => {
      const { appId, boardId } = request.params;
      p.write((out) => uninstall(p, out, appId, boardId));
      return appInfo(p, findApp(p, appId));
    },
  );
}
