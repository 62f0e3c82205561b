import { type Class, defineConversation, type MessageContext, OnMessage } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';

// docs/conversations.md, "Starting over": the message that starts a conversation again while it is
// under way is not an answer to it. Its start handler and the conversation's listener both see that
// message; the listener runs once the message's other listeners are done, so it finds the new start.

const Signup = defineConversation({
  name: 'signup',
  questions: ['What is your name?', 'What is your team?'],
  done: (_ctx, [name, team]) => `Welcome ${name} of ${team}!`,
});

class StartSignup {
  @OnMessage('!signup')
  start(ctx: MessageContext) {
    return ctx.session(Signup).start(ctx.message.id);
  }
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

/** Says `text` as alice and returns every reply of the bot to it, once the bot settled. */
async function repliesTo(p: TestPlatform, text: string): Promise<string[]> {
  const said = await p.person('alice').say(text);
  await p.settle();
  return p.bot.messages({ replyTo: said }).map((m) => m.content ?? '');
}

// Both orders of the handlers: the listener declared first (it would read the state first) and last.
describe.each([
  ['listener first', [Signup.listener, StartSignup]],
  ['listener last', [StartSignup, Signup.listener]],
] as [string, Class[]][])('the start message said again mid-conversation (%s)', (_order, handlers) => {
  it('starts over with the first question only, and is not taken as an answer', async () => {
    const p = await createTestPlatform({ handlers });
    platform = p;
    expect(await repliesTo(p, '!signup')).toEqual(['What is your name?']);
    expect(await repliesTo(p, 'Alice')).toEqual(['What is your team?']);
    expect(await repliesTo(p, '!signup')).toEqual(['What is your name?']);
    expect(await repliesTo(p, 'Bob')).toEqual(['What is your team?']);
    expect(await repliesTo(p, 'Platform')).toEqual(['Welcome Bob of Platform!']);
  });
});

const order: string[] = [];

class Ordered {
  // Declared first, marked afterOthers: it still runs once the listener below is done.
  @OnMessage('!order', { afterOthers: true })
  after() {
    order.push('after');
  }

  @OnMessage('!order')
  async first(ctx: MessageContext) {
    order.push('first: start');
    await ctx.reply('first');
    order.push('first: replied');
  }
}

describe('a listener marked afterOthers', () => {
  it("runs once the message's other listeners are done, not beside them", async () => {
    const p = await createTestPlatform({ handlers: [Ordered] });
    platform = p;
    expect(await repliesTo(p, '!order')).toEqual(['first']);
    expect(order).toEqual(['first: start', 'first: replied', 'after']);
  });
});
