import { type MessageContext, OnEvent, OnMessage, OnMessageDelete, OnMessageEdit, UseGuards } from '@boardbot/core';
import type { MessageCreateEvent } from '@boardbot/protocol';
import { until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

/** What the listeners saw, to assert on. */
const seen = {
  all: [] as string[],
  own: [] as string[],
  edits: [] as string[],
  deletes: [] as string[],
  raw: [] as string[],
};

class Greeter {
  @OnMessage(/^hello\b/i)
  hello(ctx: MessageContext) {
    return `Hello, ${ctx.authorName}!`;
  }

  @OnMessage('!echo ')
  echo(ctx: MessageContext) {
    return ctx.reply(ctx.message.content?.slice('!echo '.length) ?? '');
  }

  @OnMessage(/^roll (\d+)$/)
  roll(ctx: MessageContext) {
    return `Rolled a d${ctx.match?.[1]}`;
  }
}

class Watcher {
  @OnMessage()
  every(ctx: MessageContext) {
    seen.all.push(ctx.message.content ?? '');
  }

  @OnMessage(undefined, { includeOwn: true })
  everyIncludingOwn(ctx: MessageContext) {
    if (ctx.isOwn) seen.own.push(ctx.message.content ?? '');
  }

  @OnMessageEdit()
  edited(ctx: MessageContext) {
    seen.edits.push(ctx.message.content ?? '');
  }

  @OnMessageDelete()
  deleted(ctx: MessageContext) {
    seen.deletes.push(ctx.message.id);
  }

  @OnEvent('message.create')
  raw(event: MessageCreateEvent) {
    seen.raw.push(event.message.id);
  }
}

class SelfEditing {
  @OnMessage('!countdown')
  async countdown(ctx: MessageContext) {
    const sent = await ctx.send('3');
    await ctx.edit(sent, '2');
    const gone = await ctx.send('temporary');
    await ctx.delete(gone);
    return ctx.reply('done');
  }

  @OnMessage('!private')
  @UseGuards((ctx) => (ctx.kind === 'message' && ctx.author?.username === 'alice') || 'Only alice.')
  secret() {
    return 'psst';
  }
}

describe('message listeners against the emulator', () => {
  let platform: Platform;
  let started: ReturnType<Platform['bot']>;

  beforeAll(async () => {
    platform = await TestPlatform.start();
    started = platform.bot({ handlers: [Greeter, Watcher, SelfEditing] });
    await started.bot.start();
  });

  afterAll(async () => {
    await started?.bot.stop();
    await platform?.close();
  });

  /** Posts as a person, then waits for the bot's reply to that message. */
  async function replyTo(content: string, user = platform.alice) {
    const message = await platform.post(user, platform.general, content);
    let reply: string | null | undefined;
    await until(async () => {
      reply = (await platform.messages(platform.general, 20)).find((m) => m.reply_to === message.id)?.content;
      return reply !== undefined;
    }, `a reply to "${content}"`);
    return reply;
  }

  it('replies to a matching message, threaded, naming the author', async () => {
    expect(await replyTo('hello there')).toBe('Hello, Alice!');
  });

  it('matches a prefix and gives the regular expression match', async () => {
    expect(await replyTo('!echo parrot')).toBe('parrot');
    expect(await replyTo('roll 20', platform.bob)).toBe('Rolled a d20');
  });

  it('ignores its own messages unless the listener asks for them', async () => {
    const marker = await platform.post(platform.bob, platform.general, 'hello marker');
    await until(() => seen.own.includes('Hello, Bob!'), 'the includeOwn listener saw the bot reply');
    await started.bot.idle();
    // The bot's replies reached only the listener that asked; the catch-all saw people's messages.
    expect(seen.all).toContain('hello marker');
    expect(seen.all).not.toContain('Hello, Bob!');
    expect(seen.all).not.toContain('Hello, Alice!');
    // And the greeter did not greet its own "Hello, Bob!" (no loop): one reply to the marker only.
    const replies = (await platform.messages(platform.general)).filter((m) => m.content === 'Hello, Bob!');
    expect(replies.map((m) => m.reply_to)).toEqual([marker.id]);
    expect(seen.raw).toContain(marker.id);
  });

  it('edits and deletes its own messages, and hears edits and deletions', async () => {
    expect(await replyTo('!countdown')).toBe('done');
    const messages = await platform.messages(platform.general, 10);
    expect(messages.some((m) => m.content === '2' && m.edited_at !== null)).toBe(true);
    expect(messages.some((m) => m.deleted_at !== null && m.content === null)).toBe(true);
    const person = await platform.post(platform.bob, platform.random, 'typo');
    await platform.control.editMessage(platform.random.id, person.id, 'fixed');
    await platform.control.deleteMessage(platform.random.id, person.id);
    await until(() => seen.deletes.includes(person.id), 'the deletion was heard');
    expect(seen.edits).toContain('fixed');
  });

  it('a guard on a listener answers with its reply', async () => {
    expect(await replyTo('!private', platform.bob)).toBe('Only alice.');
    expect(await replyTo('!private', platform.alice)).toBe('psst');
  });
});
