import { defineConversation, type MessageContext, OnMessage, refuse } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/conversations.md, "Checked answers": a question with a parse function refuses an answer with
// its reason and asks again, up to maxTries; done gets what each parse returned.

const Booking = defineConversation({
  name: 'booking',
  questions: [
    'Which room?',
    {
      ask: 'How many people?',
      parse: (text) => (/^\d+$/.test(text) && Number(text) > 0 ? Number(text) : refuse('Please answer with a number.')),
    },
  ],
  // `people` is a number: what parse returned.
  done: (_ctx, [room, people]) => `Booked ${room} for ${people} (${people + 1} with you).`,
  maxTries: 2,
});

class StartBooking {
  @OnMessage('!book')
  start(ctx: MessageContext) {
    return ctx.session(Booking).start(ctx.message.id);
  }
}

describe('a conversation with a checked question', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [StartBooking, Booking.listener] });
  });
  afterAll(() => platform?.close());

  /** Says `text` as `who` and returns the bot's reply to it, or null once the bot settled without one. */
  async function answerTo(who: string, text: string): Promise<string | null> {
    const said = await platform.person(who).say(text);
    await platform.settle();
    return platform.bot.messages({ replyTo: said })[0]?.content ?? null;
  }

  it('asks again with the reason, then gives done the parsed value', async () => {
    expect(await answerTo('alice', '!book')).toBe('Which room?');
    // A plain question takes any text.
    expect(await answerTo('alice', 'Blue')).toBe('How many people?');
    expect(await answerTo('alice', 'banana')).toBe('Please answer with a number.\nHow many people?');
    expect(await answerTo('alice', ' 4 ')).toBe('Booked Blue for 4 (5 with you).');
    expect(await answerTo('alice', '5')).toBeNull();
  });

  it('ends with triesReply once maxTries answers to one question were refused', async () => {
    expect(await answerTo('bob', '!book')).toBe('Which room?');
    expect(await answerTo('bob', 'Red')).toBe('How many people?');
    expect(await answerTo('bob', 'many')).toBe('Please answer with a number.\nHow many people?');
    expect(await answerTo('bob', 'lots')).toBe(
      'That booking ended: none of the answers could be taken. Start it again when you are ready.',
    );
    expect(await answerTo('bob', '3')).toBeNull();
  });

  it('refuses a maxTries below 1 when it is defined, saying what to give', () => {
    expect(() => defineConversation({ name: 'bad', questions: ['?'], done: () => 'ok', maxTries: 0 })).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_INVALID_HANDLER',
        message: expect.stringContaining('maxTries is 0; give a whole number of at least 1'),
      }),
    );
  });
});
