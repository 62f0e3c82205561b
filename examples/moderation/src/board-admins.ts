import type { CanActivate, HandlerContext } from '@boardbot/core';
import { isModerator } from './roles.js';

/** Lets only a board's owners and admins through (the `/mod` command's guard). */
export class BoardAdmins implements CanActivate {
  async canActivate(ctx: HandlerContext): Promise<true | string> {
    return (await isModerator(ctx)) || 'Only board owners and admins can use /mod.';
  }
}
