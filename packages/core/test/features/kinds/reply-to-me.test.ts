import { createBot, OnMessage } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnReplyToMe, type ReplyContext, replyToMe } from './reply-to-me/reply-kind.js';

// A kind of handler written outside core and registered through a plugin (docs/plugins.md): its
// handlers run through the same stages as core's, with their keys, their supervision and the apology.

class Ping {
  @OnMessage('ping')
  pong() {
    return 'pong';
  }
}

/** A class with no decorator but the plugin's kind's. */
class Replies {
  @OnReplyToMe()
  heard(ctx: ReplyContext, text: string) {
    if (text === 'fail') throw new Error('failed on purpose');
    return `you said "${text}" (${ctx.idempotencyKey('heard')})`;
  }
}

describe('@OnReplyToMe, a kind of handler given by a plugin', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [Ping, Replies], plugins: [replyToMe({})] });
  });
  afterAll(() => platform?.close());

  it('runs its handler for a reply to one of the bot’s messages, with the run’s keys, and its result answers', async () => {
    const alice = platform.person('alice');
    const ping = await alice.say('ping');
    const pong = await platform.bot.nextMessage({ replyTo: ping });
    const thanks = await alice.reply(pong, 'thanks');
    const answer = await platform.bot.nextMessage({ replyTo: thanks });
    // Its run's keys derive from the reply and the handler, as any run's of a message.
    expect(answer.content).toMatch(new RegExp(`^you said "thanks" \\(bb1:m\\.${thanks.id}:[\\w-]{10}:n:heard\\)$`));
    // A message that replies to nothing of the bot's is not routed to it.
    await alice.say('thanks again');
    await platform.settle();
    expect(platform.bot.messages().map((m) => m.content)).not.toContain('you said "thanks again"');
  });

  it('apologises when its handler fails, as for any kind that answers', async () => {
    const alice = platform.person('alice');
    const ping = await alice.say('ping');
    const pong = await platform.bot.nextMessage({ replyTo: ping });
    const failing = await alice.reply(pong, 'fail');
    const apology = await platform.bot.nextMessage({ replyTo: failing });
    expect(apology.content).toBe('Sorry, something went wrong while handling that. It has been logged.');
  });

  it('is the only way a class carrying only its decorator is a handler: without the plugin, it is refused', () => {
    expect(() => createBot({ token: 't', handlers: [Replies] })).toThrow(
      expect.objectContaining({ code: 'BOARDBOT_INVALID_HANDLER' }),
    );
  });
});
