import { isReplyBody } from '../kernel/body.js';
import type { HandlerTarget, KindRules, Stage } from '../policies/stages.js';
import type { MessageContextImpl } from './message-context.js';

/**
 * How a message listener's runs meet the stages: guards and middleware see its context, its
 * cooldown counts per author (or webhook name) and board, and it is held back silently, unless its
 * guard chose words for the person (said at most once a window per person and listener, through the
 * runner's refusal throttle); held back, an editable listener's earlier answers stand.
 */
export const MESSAGE_RULES: KindRules<MessageContextImpl> = {
  guarded: true,
  answers: true,
  subject: (ctx) => ({ who: ctx.who, board: ctx.boardId }),
  refuse: async (ctx, refusal) => {
    if (refusal.reason === 'denied' && refusal.words !== undefined && ctx.mayRefuse(refusal.handler)) {
      await ctx.reply(refusal.words);
    } else ctx.heldBack();
  },
};

const forMessages = (_target: HandlerTarget, rules: KindRules): boolean => rules === MESSAGE_RULES;

/** A message listener's own stages: it is called with its context; a returned body is the reply. */
export const MESSAGE_STAGES: readonly Stage[] = [
  {
    name: 'message listener arguments',
    phase: 'arguments',
    applies: forMessages,
    run(pass) {
      pass.args = [pass.ctx];
    },
  },
  {
    name: 'message listener reply',
    phase: 'result',
    applies: forMessages,
    run({ ctx, result }) {
      const message = ctx as MessageContextImpl;
      if (isReplyBody(result) && !message.replied) return message.reply(result).then(() => {});
    },
  },
];
