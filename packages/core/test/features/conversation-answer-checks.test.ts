import { defineConversation, type MessageContext, OnMessage, Option } from '@boardbot/core';
import { createTestPlatform } from '@boardbot/testing';
import { IsInt, Matches } from 'class-validator';
import { describe, expect, it } from 'vitest';

// docs/listening-to-messages.md, "Patterns that cannot stall": an answer class that only a branch
// returns is not known at start; it is checked the first time it takes an answer, and a vulnerable
// one never runs on the person's text.

class Count {
  @Option({ description: 'How many' })
  @IsInt()
  count!: number;
}

class Nickname {
  @Option({ description: 'Your nickname' })
  @Matches(/^([a-z0-9]+)+$/i)
  nick!: string;
}

class Colour {
  @Option({ description: 'A colour' })
  @Matches(/^[a-z]+$/)
  colour!: string;
}

const Signup = defineConversation({
  name: 'signup',
  questions: [
    { ask: 'How many?', answer: Count },
    ([count]: [Count]) =>
      count.count === 1 ? { ask: 'Your nickname?', answer: Nickname } : { ask: 'A colour?', answer: Colour },
  ],
  done: (_ctx, [count, last]) => `done: ${count.count}, ${JSON.stringify(last)}`,
});

class StartSignup {
  @OnMessage('!signup')
  start(ctx: MessageContext) {
    return ctx.session(Signup).start(ctx.message.id);
  }
}

describe("an answer class a conversation's branch returns", () => {
  it('is checked at its first answer: a vulnerable one fails the run (BOARDBOT_UNSAFE_REGEX), a safe one validates', async () => {
    const platform = await createTestPlatform({ handlers: [StartSignup, Signup.listener] });
    try {
      const reply = async (who: string, text: string) => {
        const said = await platform.person(who).say(text);
        return (await platform.bot.nextMessage({ replyTo: said })).content;
      };
      expect(await reply('alice', '!signup')).toBe('How many?');
      expect(await reply('alice', '1')).toBe('Your nickname?');
      // Validated, the answer would have been refused ("nick must match ..."): the pattern never ran on it.
      expect(await reply('alice', `${'a'.repeat(20)}!`)).toBe(
        'Sorry, something went wrong while handling that. It has been logged.',
      );
      const failed = platform.logs.find({ atLeast: 'error' }).map((l) => JSON.stringify(l.err));
      expect(failed).toEqual([expect.stringContaining('BOARDBOT_UNSAFE_REGEX')]);
      expect(failed[0]).toContain('Nickname.nick: /^([a-z0-9]+)+$/i takes exponential time');
      // The other branch's class is safe: checked at its first answer, it validates.
      expect(await reply('bob', '!signup')).toBe('How many?');
      expect(await reply('bob', '2')).toBe('A colour?');
      expect(await reply('bob', 'Blue!')).toBe('colour must match /^[a-z]+$/ regular expression\nA colour?');
      expect(await reply('bob', 'blue')).toBe('done: 2, {"colour":"blue"}');
    } finally {
      await platform.close();
    }
  });
});
