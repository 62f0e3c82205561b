import { createTestPlatform } from '@boardbot/testing';
import { expect, it } from 'vitest';
import { Listener, Roll } from './support/bot.js';

it('gives each platform its own emulator, so tests running side by side never see each other', async () => {
  const [one, two] = await Promise.all([
    createTestPlatform({ handlers: [Roll, Listener] }),
    createTestPlatform({ handlers: [Roll, Listener] }),
  ]);
  try {
    expect(one.urls.url).not.toBe(two.urls.url);
    const [a, b] = await Promise.all([one.person('alice').say('hello one'), two.person('alice').say('hello two')]);
    const [ra, rb] = await Promise.all([one.bot.nextMessage({ replyTo: a }), two.bot.nextMessage({ replyTo: b })]);
    expect([ra.content, rb.content]).toEqual(['Hello, Alice!', 'Hello, Alice!']);
    await Promise.all([one.person('bob').invoke('roll', { sides: 7 }), two.settle()]);
    await one.settle();
    expect(one.bot.messages().map((m) => m.content)).toEqual(['Hello, Alice!', 'You rolled 7']);
    expect(two.bot.messages().map((m) => m.content)).toEqual(['Hello, Alice!']);
    expect((await two.messages()).map((m) => m.content)).toEqual(['hello two', 'Hello, Alice!']);
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
});
