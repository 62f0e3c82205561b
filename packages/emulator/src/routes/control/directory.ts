import type { Board, BoardList, Member, MemberList, UserProfile } from '@boardbot/protocol';
import type { FastifyInstance } from 'fastify';
import {
  type CreateAppBody,
  type CreateBoardBody,
  type CreateUserBody,
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
import { appInfo, controlRoute, optionalBody } from './shared.js';

type P<T> = { Params: T };
type R<T> = { Reply: T };

/** People, boards, memberships, apps and installs. */
export function controlDirectoryRoutes(app: FastifyInstance, p: Platform): void {
  controlRoute<R<UserList>>(app, 'listUsers', () => ({ users: p.store.users.all() }));
  controlRoute<{ Body: CreateUserBody } & R<UserProfile>>(app, 'createUser', (request, reply) => {
    reply.code(201);
    return p.write((out) => createUser(p, out, request.body));
  });

  controlRoute<R<BoardList>>(app, 'listBoards', () => ({ boards: p.store.boards.all() }));
  controlRoute<{ Body: CreateBoardBody } & R<Board>>(app, 'createBoard', (request, reply) => {
    reply.code(201);
    return p.write((out) => createBoard(p, out, request.body));
  });

  controlRoute<P<{ boardId: string }> & R<MemberList>>(app, 'listMembers', (request) => {
    requireBoard(p, request.params.boardId);
    return { members: p.store.boards.members(request.params.boardId) };
  });
  controlRoute<P<{ boardId: string; userId: string }> & R<Member>>(app, 'setMember', (request) => {
    const { role = 'member' } = optionalBody(MemberBody, request.body);
    const { boardId, userId } = request.params;
    return p.write((out) => setMember(p, out, boardId, userId, role));
  });
  controlRoute<P<{ boardId: string; userId: string }>>(app, 'removeMember', (request, reply) => {
    const { boardId, userId } = request.params;
    p.write((out) => removeMember(p, out, boardId, userId));
    return reply.code(204).send();
  });

  controlRoute<R<AppList>>(app, 'listApps', () => ({ apps: p.store.apps.all().map((a) => appInfo(p, a)) }));
  controlRoute<{ Body: CreateAppBody } & R<CreatedApp>>(app, 'createApp', (request, reply) => {
    const { app: row, token } = p.write((out) => createApp(p, out, request.body));
    // The token is shown this once; the emulator keeps only its SHA-256.
    reply.code(201);
    return { app: appInfo(p, row), token };
  });
  controlRoute<P<{ appId: string }> & R<CreatedApp>>(app, 'rotateAppToken', (request) => {
    const { token: chosen } = optionalBody(RotateTokenBody, request.body);
    const { app: row, token } = p.write((out) => rotateToken(p, out, request.params.appId, chosen));
    // Shown this once, as at creation; the old token is refused from now on.
    return { app: appInfo(p, row), token };
  });
  controlRoute<P<{ appId: string; boardId: string }> & R<AppInfo>>(app, 'installApp', (request) => {
    const { appId, boardId } = request.params;
    p.write((out) => install(p, out, appId, boardId));
    return appInfo(p, findApp(p, appId));
  });
  controlRoute<P<{ appId: string; boardId: string }> & R<AppInfo>>(app, 'uninstallApp', (request) => {
    const { appId, boardId } = request.params;
    p.write((out) => uninstall(p, out, appId, boardId));
    return appInfo(p, findApp(p, appId));
  });
}
