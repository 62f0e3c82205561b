import { defineConversation, type MessageContext, OnMessage, refuse } from '@boardbot/core';
import { Rounds } from './round.js';

/**
 * The blockers question, checked: "no" (or none, nothing, -) is not blocked (null), any other text
 * says what blocks; a bare "yes" says nothing useful, so it is asked again.
 */
const blockers = {
  ask: 'Is anything blocking you? Answer no, or say what blocks you.',
  parse: (text: string) => {
    if (/^(no|none|nothing|-)\.?$/i.test(text)) return null;
    if (/^(yes|y)\.?$/i.test(text)) return refuse('Say what blocks you (or no).');
    return text;
  },
};

/** The three questions of a standup, asked one message at a time. */
export const StandupUpdate = defineConversation({
  name: 'standup',
  questions: ['What did you do since the last standup?', 'What will you do next?', blockers],
  done: async (ctx: MessageContext, [done, next, blockedBy]) => {
    const line = `${ctx.authorName}: did ${done}; next ${next}; ${blockedBy === null ? 'not blocked' : `blocked by ${blockedBy}`}`;
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
