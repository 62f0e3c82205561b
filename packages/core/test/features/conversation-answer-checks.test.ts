import { defineConversation, type MessageContext, OnMessage, Option } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { IsInt, Matches, ValidateBy } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What meets a person's answer before an answer class's validators do. docs/listening-to-messages.md,
// "Patterns that cannot stall": an answer class that only a branch returns is not known at start; it
// is checked the first time it takes an answer, and a vulnerable one never runs on the person's text.
// docs/commands-and-options.md, "String lengths": an answer longer than its option's maximum is
// refused before any validator runs.

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

class Motto {
  static checked = 0;
  @Option({ description: 'Your motto' })
  @ValidateBy({ name: 'counted', validator: { validate: () => ++Motto.checked > 0 } })
  motto!: string;
}

const Mottos = defineConversation({
  name: 'mottos',
  questions: [{ ask: 'Your motto?', answer: Motto }],
  done: (_ctx, [{ motto }]) => `motto of ${motto.length} characters`,
});

class Starts {
  @OnMessage('!signup')
  signup(ctx: MessageContext) {
    return ctx.session(Signup).start(ctx.message.id);
  }

  @OnMessage('!motto')
  motto(ctx: MessageContext) {
    return ctx.session(Mottos).start(ctx.message.id);
  }
}

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform({ handlers: [Starts, Signup.listener, Mottos.listener] });
});
afterAll(() => platform?.close());

/** Says `text` as `who`, and returns the bot's reply to it. */
async function reply(who: string, text: string): Promise<string | null> {
  const said = await platform.person(who).say(text);
  return (await platform.bot.nextMessage({ replyTo: said })).content;
}

describe("an answer class a conversation's branch returns", () => {
  it('is checked at its first answer: a vulnerable one fails the run (BOARDBOT_UNSAFE_REGEX), a safe one validates', async () => {
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
  });
});

describe("an answer class's string", () => {
  it('is refused past its maximum length (1000 by default) before any validator runs', async () => {
    expect(await reply('carol', '!motto')).toBe('Your motto?');
    expect(await reply('carol', 'm'.repeat(1001))).toBe(
      'motto must be shorter than or equal to 1000 characters\nYour motto?',
    );
    expect(Motto.checked).toBe(0);
    expect(await reply('carol', 'm'.repeat(1000))).toBe('motto of 1000 characters');
    expect(Motto.checked).toBeGreaterThan(0);
  });
});
