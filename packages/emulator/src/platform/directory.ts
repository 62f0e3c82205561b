import type { Board, Member, UserProfile } from '@boardbot/protocol';
import type { CreateAppBody, CreateBoardBody, CreateUserBody } from '../control/schemas/requests.js';
import { PlatformError, validationFailed } from '../errors.js';
import type { AppRow } from '../store/apps.js';
import { issueToken } from './app-tokens.js';
import type { Outbox } from './outbox.js';
import type { Platform } from './platform.js';

// The people's side of the platform (control API and seed): users, boards, memberships, apps and
// installs. Each function runs inside a write and raises the activity stream's `state.update`.

/** A new person (as the control API creates one), or a bot user. */
export type NewUser = CreateUserBody & { is_bot?: boolean };

/** Creates a user; `400 validation_failed` when the username is taken. */
export function createUser(p: Platform, out: Outbox, u: NewUser): UserProfile {
  if (p.store.users.byUsername(u.username)) {
    throw validationFailed([{ path: '/username', message: `The username "${u.username}" is taken` }]);
  }
  const user: UserProfile = {
    id: p.newId(),
    username: u.username,
    display_name: u.display_name ?? u.username,
    avatar_url: u.avatar_url ?? null,
    is_bot: u.is_bot ?? false,
    created_at: p.isoNow(),
  };
  p.store.users.insert(user);
  out.activityEvent('state.update', { what: 'users' });
  return user;
}

/** Creates a board. */
export function createBoard(p: Platform, out: Outbox, b: CreateBoardBody): Board {
  const id = p.newId();
  p.store.boards.insert({ id, name: b.name, description: b.description ?? null, created_at: p.isoNow() });
  out.activityEvent('state.update', { what: 'boards' });
  return p.store.boards.byId(id) as Board;
}

/**
 * Checks that the board exists; `404 unknown_board` otherwise. Only its existence is looked up: the
 * board's record (with its member count) is not needed by any caller.
 */
export function requireBoard(p: Platform, boardId: string): void {
  if (!p.store.boards.exists(boardId)) throw new PlatformError('unknown_board', 'No board with this id');
}

/** The user with this id; `404 unknown_user` otherwise. */
export function findUser(p: Platform, userId: string): UserProfile {
  const user = p.store.users.byId(userId);
  if (!user) throw new PlatformError('unknown_user', 'No user with this id');
  return user;
}

/** The app with this id; `404 not_found` otherwise (the contract has no `unknown_app`). */
export function findApp(p: Platform, appId: string): AppRow {
  const app = p.store.apps.byId(appId);
  if (!app) throw new PlatformError('not_found', 'No app with this id');
  return app;
}

/** Adds a member to a board, or changes its role. */
export function setMember(p: Platform, out: Outbox, boardId: string, userId: string, role: Member['role']): Member {
  requireBoard(p, boardId);
  findUser(p, userId);
  p.store.boards.upsertMember(boardId, userId, role, p.isoNow());
  out.activityEvent('state.update', { what: 'members' });
  return p.store.boards.member(boardId, userId) as Member;
}

/** Removes a member from a board (nothing happens if it was not one). */
export function removeMember(p: Platform, out: Outbox, boardId: string, userId: string): void {
  requireBoard(p, boardId);
  if (p.store.boards.removeMember(boardId, userId)) out.activityEvent('state.update', { what: 'members' });
}

function botUsername(p: Platform, name: string): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .slice(0, 28) || 'app';
  let candidate = base;
  for (let i = 2; p.store.users.byUsername(candidate); i++) candidate = `${base.slice(0, 28)}-${i}`;
  return candidate;
}

/**
 * Creates an app and its bot user; answers the token, which is stored only as its SHA-256, with the
 * strength it was judged to have. A given `token` is used as is (so a bot's `.env` keeps working),
 * else a random one is made (see {@link issueToken}).
 */
export function createApp(p: Platform, out: Outbox, a: CreateAppBody): { app: AppRow; token: string } {
  const { token, hash, strength } = issueToken(p, a.token);
  const bot = createUser(p, out, { username: botUsername(p, a.name), display_name: a.name, is_bot: true });
  const id = p.newId();
  p.store.apps.insert({
    id,
    name: a.name,
    description: a.description ?? null,
    bot_user_id: bot.id,
    token_hash: hash,
    token_strength: strength,
    created_at: p.isoNow(),
  });
  out.activityEvent('state.update', { what: 'apps' });
  return { app: p.store.apps.byId(id) as AppRow, token };
}

/**
 * Gives an app another token (generated, or `chosen`, judged as at creation): the old one stops
 * working at once, and the app's open gateway streams end once the change is committed, so a stream
 * opened with the old token does not outlive it. Given its current token, the app keeps it and only
 * its strength is judged again (an app stored before strengths were recorded).
 */
export function rotateToken(
  p: Platform,
  out: Outbox,
  appId: string,
  chosen: string | undefined,
): { app: AppRow; token: string } {
  const app = findApp(p, appId);
  const { token, hash, strength } = issueToken(p, chosen, app.id);
  p.store.apps.setToken(app.id, hash, strength);
  if (hash !== app.token_hash) out.afterCommit.push(() => p.gateway.endKey(app.id));
  out.activityEvent('state.update', { what: 'apps' });
  return { app: p.store.apps.byId(app.id) as AppRow, token };
}

/** Installs an app on a board: its bot user becomes a member with role `app`. */
export function install(p: Platform, out: Outbox, appId: string, boardId: string): void {
  const app = findApp(p, appId);
  requireBoard(p, boardId);
  if (p.store.boards.member(boardId, app.bot_user_id)?.role === 'app') return;
  p.store.boards.upsertMember(boardId, app.bot_user_id, 'app', p.isoNow());
  out.activityEvent('state.update', { what: 'apps' });
}

/** Removes an app from a board. */
export function uninstall(p: Platform, out: Outbox, appId: string, boardId: string): void {
  const app = findApp(p, appId);
  requireBoard(p, boardId);
  if (p.store.boards.removeMember(boardId, app.bot_user_id)) out.activityEvent('state.update', { what: 'apps' });
}
