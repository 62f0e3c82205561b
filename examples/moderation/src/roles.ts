import type { HandlerContext } from '@boardbot/core';

/** Roles that moderate a board. */
const MODERATORS = new Set(['owner', 'admin']);

/**
 * Whether the person behind `ctx` (who invoked the command, or wrote the message) is an owner or an
 * admin of the board, read from the board's members over REST at each call, so a role change on the
 * platform counts at once.
 */
export async function isModerator(ctx: HandlerContext): Promise<boolean> {
  const userId = ctx.kind === 'command' ? ctx.user.id : ctx.message.author;
  if (userId === null) return false;
  const members = await ctx.rest.listMembers(ctx.boardId, ctx.requestOptions);
  const role = members.find((m) => m.user.id === userId)?.role;
  return role !== undefined && MODERATORS.has(role);
}
