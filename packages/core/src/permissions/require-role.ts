import type { HandlerContext } from '../kernel/context.js';
import type { GuardFn } from '../policies/guards.js';
import { UseGuards } from '../policies/use-guards.js';
import { type MemberRole, memberRole, roleAtLeast } from './member-roles.js';

/** The roles `@RequireRole` orders: an owner may do what an admin may, an admin what a member may. */
export type RequiredRole = 'owner' | 'admin' | 'member';

/** A custom rule: whether a person with `role` (undefined: not a member) may run the handler. */
export type RolePredicate = (role: MemberRole | undefined, ctx: HandlerContext) => boolean;

/** Options of {@link RequireRole}. */
export interface RequireRoleOptions {
  /** What a person without the role is told. @defaultValue names the role needed and the person's own */
  reply?: string;
}

/** The refusal in the person's locale (`boardbot:roleNeeded` or `roleDenied`, see `RUNTIME_TEXTS`). */
function refusal(ctx: HandlerContext, required: RequiredRole | RolePredicate, role: MemberRole | undefined): string {
  const yours = role === undefined ? ctx.t('boardbot:notMember') : ctx.t('boardbot:yourRole', { context: role });
  return typeof required === 'function'
    ? ctx.t('boardbot:roleDenied', { yours })
    : ctx.t('boardbot:roleNeeded', { role: required, context: required, yours });
}

/**
 * Runs the handler only for people with at least `role` on the board (owner ⊇ admin ⊇ member), or
 * who pass a predicate. Roles are read from the board's members over the API and cached for
 * `ROLE_CACHE_MS`; before refusing, the list is read again, so a role just given counts at once. A
 * person refused is told why (commands always; message listeners too, since the guard has words).
 * On a class, it applies to each of its commands and listeners; on a method, to that one.
 *
 * @param role - the least role, or a predicate on the person's role
 * @param options - the refusal's words
 */
export function RequireRole(role: RequiredRole | RolePredicate, options: RequireRoleOptions = {}) {
  const allows = (have: MemberRole | undefined, ctx: HandlerContext) =>
    typeof role === 'function' ? role(have, ctx) : roleAtLeast(have, role);
  const guard: GuardFn = async (ctx) => {
    if (allows(await memberRole(ctx), ctx)) return true;
    const fresh = await memberRole(ctx, true);
    return allows(fresh, ctx) || (options.reply ?? refusal(ctx, role, fresh));
  };
  Object.defineProperty(guard, 'name', { value: `RequireRole(${typeof role === 'function' ? 'predicate' : role})` });
  return UseGuards(guard);
}
