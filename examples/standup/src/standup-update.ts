import { defineConversation, type MessageContext, OnMessage } from '@boardbot/core';
import { Rounds } from './round.js';

/** The three questions of a standup, asked one message at a time. */
export const StandupUpdate = defineConversation({
  name: 'standup',
  questions: ['What did you do since the last standup?', 'What will you do next?', 'Is anything blocking you?'],
  done: async (ctx: MessageContext, [done, next, blockers]) => {
    const blocked = /^(no|none|nothing|-)\.?$/i.test(blockers?.trim() ?? '') ? 'not blocked' : `blocked by ${blockers}`;
    const line = `${ctx.authorName}: did ${done}; next ${next}; ${blocked}`;
    await ctx.session(Rounds).update((round) => {
      round.updates.push(line);
    });
    return `Thanks ${ctx.authorName}, noted for this standup.`;
  },
  timeoutMs: 30 * 60_000,
  timeoutReply: 'Your standup update timed out; write !standup to start again.',
});

/** `!standup` starts a person's update on the board where they write it. */
export class StartUpdate {
  @OnMessage('!standup')
  start(ctx: MessageContext) {
    return ctx.session(StandupUpdate).start(ctx.message.id);
  }
}
