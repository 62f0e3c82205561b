import { type CanActivate, type HandlerContext, Injectable, memberRole } from '@boardbot/core';
import { findForbiddenHost } from './checks.js';
import { Rules } from './rules.js';

/**
 * Lets through only messages whose links break the rules: a link to a host that is not allowed,
 * from someone who is not an owner or admin. It runs before the link listener's cooldown, so the
 * cooldown counts warnings, not links. It denies silently: a listener has no one to answer.
 */
@Injectable()
export class BreaksLinkRules implements CanActivate {
  constructor(private readonly rules: Rules) {}

  async canActivate(ctx: HandlerContext): Promise<boolean> {
    if (ctx.kind !== 'message' || ctx.message.content === null) return false;
    if (findForbiddenHost(ctx.message.content, this.rules.allowedHosts) === undefined) return false;
    const role = await memberRole(ctx);
    return role !== 'owner' && role !== 'admin';
  }
}
