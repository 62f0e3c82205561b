import { randomUUID } from 'node:crypto';
import { defineConversation, MemorySessionStore, type MessageContext, OnMessage, Option } from '@boardbot/core';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/conversations.md, "Checked answers" (an answer class) and "Branches": an answer class checks
// an answer as a command option would be; a function in the question list chooses its question from
// the answers before it, or skips it; done gets each answer, undefined for a skipped question.

class Age {
  @Option({ description: 'Your age in years' })
  @IsInt()
  @Min(0)
  @Max(150)
  years!: number;
}

class Day {
  @Option({ description: 'The day of the visit' })
  @IsIn(['monday', 'friday'])
  day!: string;
}

const Visit = defineConversation({
  name: 'visit',
  questions: [
    { ask: 'How old are you?', answer: Age },
    // Asked only of the young; its text names the age.
    ([age]: [Age]) => (age.years < 18 ? `At ${age.years}, who comes with you?` : undefined),
    { ask: 'Which day, monday or friday?', answer: Day },
  ],
  done: (_ctx, [age, guardian, { day }]) =>
    guardian === undefined ? `${age.years}, on ${day}.` : `${age.years} with ${guardian}, on ${day}.`,
});

class StartVisit {
  @OnMessage('!visit')
  start(ctx: MessageContext) {
    return ctx.session(Visit).start(ctx.message.id);
  }
}

describe('a conversation with answer classes and a branch', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [StartVisit, Visit.listener] });
  });
  afterAll(() => platform?.close());

  /** Says `text` as `who` and returns the bot's reply to it, or null once the bot settled without one. */
  async function answerTo(who: string, text: string): Promise<string | null> {
    const said = await platform.person(who).say(text);
    await platform.settle();
    return platform.bot.messages({ replyTo: said })[0]?.content ?? null;
  }

  it("refuses an answer the class's constraints refuse, with the problem, as a command option would be", async () => {
    expect(await answerTo('alice', '!visit')).toBe('How old are you?');
    expect(await answerTo('alice', 'banana')).toBe('years must be an integer\nHow old are you?');
    expect(await answerTo('alice', '200')).toBe('years must not be greater than 150\nHow old are you?');
    expect(await answerTo('alice', '40')).toBe('Which day, monday or friday?');
    expect(await answerTo('alice', 'sunday')).toBe(
      'day must be one of the following values: monday, friday\nWhich day, monday or friday?',
    );
    // The branch skipped the second question: done gets undefined for it.
    expect(await answerTo('alice', 'friday')).toBe('40, on friday.');
  });

  it('asks the question a branch chooses from the answers before it', async () => {
    expect(await answerTo('bob', '!visit')).toBe('How old are you?');
    expect(await answerTo('bob', '12')).toBe('At 12, who comes with you?');
    expect(await answerTo('bob', 'Dad')).toBe('Which day, monday or friday?');
    expect(await answerTo('bob', 'monday')).toBe('12 with Dad, on monday.');
  });

  it('refuses an answer class without exactly one @Option when the conversation is defined', () => {
    class Nothing {}
    expect(() =>
      defineConversation({ name: 'bad', questions: [{ ask: '?', answer: Nothing }], done: () => 'ok' }),
    ).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_INVALID_HANDLER',
        message: expect.stringContaining('Answer class Nothing has 0 @Option properties'),
      }),
    );
  });
});

describe('a conversation stored by the released version (0.1.0), resumed by this one', () => {
  it('takes the next answer on the path its kept answers lead to, checked, and ends with done', async () => {
    const sessions = new MemorySessionStore();
    const platform = await createTestPlatform({ handlers: [StartVisit, Visit.listener], sessions });
    try {
      const carol = platform.person('carol');
      const { id } = await carol.profile();
      const general = (await platform.board('general')).id;
      // What 0.1.0 wrote once Carol had answered the first question (its state had these four
      // fields only, and its session value no `written`); it then asked the second.
      const data = { step: 1, answers: ['12'], askedAt: Date.now(), startedBy: randomUUID() };
      const key = `${platform.bot.app.id}:conversation:visit:user:${id}:board:${general}`;
      await sessions.write(key, 0, { data, shape: 1, expiresAt: Date.now() + 60_000, applied: ['AAAAAAAAAAAAAAAA'] });

      const reply = async (text: string) => {
        const said = await carol.say(text);
        return (await platform.bot.nextMessage({ replyTo: said })).content;
      };
      expect(await reply('Mum')).toBe('Which day, monday or friday?');
      expect(await reply('tuesday')).toBe(
        'day must be one of the following values: monday, friday\nWhich day, monday or friday?',
      );
      expect(await reply('friday')).toBe('12 with Mum, on friday.');
    } finally {
      await platform.close();
    }
  });
});

describe('a branched conversation that times out', () => {
  it('answers a late answer with the timeout note, after a refused answer, a retry and a branch', async () => {
    const clock = new TestClock('2026-03-02T09:00:00Z');
    const platform = await createTestPlatform({ handlers: [StartVisit, Visit.listener], clock });
    try {
      const dave = platform.person('dave');
      const reply = async (text: string) => {
        const said = await dave.say(text);
        return (await platform.bot.nextMessage({ replyTo: said })).content;
      };
      expect(await reply('!visit')).toBe('How old are you?');
      expect(await reply('-1')).toBe('years must not be less than 0\nHow old are you?');
      // The refusal asked again: the question waits its full 10 minutes once more.
      clock.advance(10 * 60_000);
      expect(await reply('9')).toBe('At 9, who comes with you?');
      clock.advance(10 * 60_000 + 1);
      expect(await reply('Gran')).toBe('That visit timed out before you answered; start it again when you are ready.');
      const after = await dave.say('monday');
      await platform.settle();
      expect(platform.bot.messages({ replyTo: after })).toEqual([]);
    } finally {
      await platform.close();
    }
  });
});
