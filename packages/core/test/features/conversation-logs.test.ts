import { defineConversation, definePlugin, IDLE_RUN, type MessageContext, OnMessage } from '@boardbot/core';
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

  it("logs at debug a run that a plugin's stage marks with IDLE_RUN (docs/plugins.md)", async () => {
    class Echo {
      @OnMessage(/^echo (.+)/)
      echo(ctx: MessageContext) {
        return ctx.reply(ctx.match?.[1] ?? '');
      }
    }
    // Marks every run of a message that is no echo as having nothing to do; a catch-all listener hears all.
    class Everything {
      @OnMessage(/./)
      hear() {}
    }
    const quiet = definePlugin((word: string) => ({
      name: 'quiet',
      stages: [
        {
          name: 'quiet chatter',
          phase: 'open' as const,
          run: ({ run, ctx }) => {
            if (ctx.kind === 'message' && !ctx.message.content?.startsWith(word)) run.set(IDLE_RUN, true);
          },
        },
      ],
    }));
    const platform = await createTestPlatform({ handlers: [Echo, Everything], plugins: [quiet('echo ')] });
    try {
      const alice = platform.person('alice');
      const chatter = await alice.say('hello, anyone?');
      const echo = await alice.say('echo hi');
      await platform.bot.nextMessage({ replyTo: echo });
      await platform.settle();
      const level = (messageId: string) =>
        platform.logs
          .find({ msg: 'handled' })
          .filter((l) => l.message_id === messageId)
          .map((l) => l.level);
      expect(level(chatter.id)).toEqual(['debug']);
      expect(level(echo.id)).toEqual(['info', 'info']);
    } finally {
      await platform.close();
    }
  });
});
