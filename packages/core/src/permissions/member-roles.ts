import type { MemberRole } from '@boardbot/protocol';
import type { HandlerContext } from '../kernel/context.js';
import type { BotRest } from '../kernel/ports.js';
import type { Scoped } from '../kernel/scoped.js';

// A board member's role is the protocol's type; re-exported so role predicates need not import it.
export type { MemberRole } from '@boardbot/protocol';

/**
 * How long a board's member list is trusted, in milliseconds. The platform sends no member events,
 * so a role change is seen within this time, and at once when it would refuse someone (a refusal
 * always reads the list again first).
 */
export const ROLE_CACHE_MS = 30_000;

interface BoardRoles {
  readAt: number;
  roles: Map<string, MemberRole>;
}

// The bot's clock (its `clock` option), reached like anything a context opens: the cache ages on the
// same time as the rest of the bot, which a test moves.
const botTime: Scoped<number> = { open: (scope) => scope.now() };

// One cache per REST client, that is per bot: two bots in one process never share one. Keyed by the
// client's options, which each run's `ctx.rest` facade shares with the client it was made from.
const caches = new WeakMap<BotRest['options'], Map<string, BoardRoles>>();

/**
 * The role on its board of the person behind `ctx` (who invoked the command, or wrote the message):
 * from the board's member list, read over the API and kept for {@link ROLE_CACHE_MS}.
 *
 * @param ctx - a command's or a message's context
 * @param fresh - read the member list again even if it is cached
 * @returns the role, or undefined for a webhook or someone who is not a member
 */
export async function memberRole(ctx: HandlerContext, fresh = false): Promise<MemberRole | undefined> {
  const userId = ctx.kind === 'command' ? ctx.user.id : ctx.message.author;
  if (userId === null) return undefined;
  const cache = caches.get(ctx.rest.options) ?? new Map<string, BoardRoles>();
  caches.set(ctx.rest.options, cache);
  let board = cache.get(ctx.boardId);
  if (fresh || board === undefined || ctx.session(botTime) - board.readAt > ROLE_CACHE_MS) {
    const members = await ctx.rest.listMembers(ctx.boardId, ctx.requestOptions);
    board = { readAt: ctx.session(botTime), roles: new Map(members.map((m) => [m.user.id, m.role])) };
    cache.set(ctx.boardId, board);
  }
  return board.roles.get(userId);
}

/** The roles a rule may ask for: an owner may do what an admin may, an admin what a member may. */
const RANK: Record<MemberRole, number> = { app: 0, member: 1, admin: 2, owner: 3 };

/**
 * Whether a person's role is at least `least` (owner ⊇ admin ⊇ member).
 * @param role - the person's role; undefined: not a member
 * @param least - the least role asked for
 */
export function roleAtLeast(role: MemberRole | undefined, least: 'owner' | 'admin' | 'member'): boolean {
  return role !== undefined && RANK[role] >= RANK[least];
}
