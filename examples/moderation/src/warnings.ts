import { Injectable, type MessageContext } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { ModerationClock } from './moderation-clock.js';
import { Rules } from './rules.js';
import { Strikes } from './strikes.js';

/**
 * Warns a person in a reply to their message, counts a strike, and deletes the warning after
 * `warningTtlMs` so the board does not fill up with them. (The platform lets a bot delete only its
 * own messages: the person's message stays, as on most platforms without moderator rights.)
 */
@Injectable()
export class Warnings {
  constructor(
    private readonly rules: Rules,
    private readonly strikes: Strikes,
    private readonly clock: ModerationClock,
  ) {}

  /**
   * @param ctx - the offending message's context
   * @param reason - what was wrong, e.g. `please keep it civil: "darn" is not allowed here`
   * @returns the warning
   */
  async warn(ctx: MessageContext, reason: string): Promise<Message> {
    const strike = this.strikes.add(ctx.boardId, ctx.message.author ?? '');
    const warning = await ctx.reply(`⚠️ ${ctx.authorName}, ${reason}. (strike ${strike})`);
    ctx.log.info({ reason, strike, warning_id: warning.id }, 'warned');
    this.clock.setTimeout(() => {
      ctx.rest.deleteMessage(warning.board_id, warning.id, ctx.requestOptions).then(
        () => ctx.log.debug({ warning_id: warning.id }, 'warning deleted'),
        (error: unknown) => ctx.log.warn({ err: error, warning_id: warning.id }, 'could not delete a warning'),
      );
    }, this.rules.warningTtlMs);
    return warning;
  }
}
