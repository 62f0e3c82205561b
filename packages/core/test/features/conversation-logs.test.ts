import { defineConversation, type MessageContext, OnMessage } from '@boardbot/core';
import { createTestPlatform } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';

const Signup = defineConversation({
  name: 'signup',
  questions: ['What is your name?'],
  done: (_ctx, [name]) => `Welcome ${name}!`,
});

class StartSignup {
  @OnMessage('!signup')
  start(ctx: MessageContext) {
    return ctx.session(Signup).start(ctx.message.id);
  }
}

describe("a conversation's listener in the log (issue 42)", () => {
  it('logs a message that answers no conversation at debug, and an answer at info', async () => {
    const platform = await createTestPlatform({ handlers: [StartSignup, Signup.listener] });
    try {
      const alice = platform.person('alice');
      const chatter = await alice.say('hello, anyone?');
      await platform.settle();
      const start = await alice.say('!signup');
      await platform.bot.nextMessage({ replyTo: start });
      const answer = await alice.say('Alice');
      expect((await platform.bot.nextMessage({ replyTo: answer })).content).toBe('Welcome Alice!');
      await platform.settle();

      const handled = (messageId: string) =>
        platform.logs
          .find({ msg: 'handled' })
          .filter((l) => l.handler === 'Conversation(signup).answer' && l.message_id === messageId)
          .map((l) => ({ level: l.level, outcome: l.outcome }));
      expect(handled(chatter.id)).toEqual([{ level: 'debug', outcome: 'ok' }]);
      expect(handled(start.id)).toEqual([{ level: 'debug', outcome: 'ok' }]);
      expect(handled(answer.id)).toEqual([{ level: 'info', outcome: 'ok' }]);
    } finally {
      await platform.close();
    }
  });
});
