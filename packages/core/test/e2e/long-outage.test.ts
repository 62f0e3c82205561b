import { MemoryPositionStore, type MessageContext, OnMessage } from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

class Echo {
  @OnMessage(/^m /)
  echo(ctx: MessageContext) {
    return `echo ${ctx.message.content}`;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

describe('a bot of a quiet app, down for more than 24 hours', () => {
  let platform: Platform;
  // The emulator's clock, moved a day and an hour on while the bot is down.
  let offset = 0;

  beforeAll(async () => {
    // The contract's retention (the last N events, or 24 h, whichever keeps more) with a small N.
    platform = await TestPlatform.start({ now: () => Date.now() + offset, limits: { retainedEvents: 50 } });
  });

  afterAll(() => platform?.close());

  it('resumes without a gap: the events older than 24 h but among the last N are still replayed', async () => {
    // Older events, so the emulator's pruning has something below the bot's point to remove.
    for (let i = 0; i < 60; i++) await platform.post(platform.bob, platform.random, `filler ${i}`);
    const store = new MemoryPositionStore();
    const first = platform.bot({ handlers: [Echo], position: store });
    await first.bot.start();
    await first.bot.stop();

    // Fewer than 50 events after the bot's point, all of them more than 24 h old by the time it returns.
    const missed = await platform.post(platform.alice, platform.general, 'm while down');
    for (let i = 0; i < 30; i++) await platform.post(platform.bob, platform.random, `later ${i}`);
    offset = DAY_MS + 60 * 60 * 1000;
    // Up to the 100th event: a pruning round, which removes only what is both old and beyond the last 50.
    for (let i = 0; i < 9; i++) await platform.post(platform.bob, platform.random, `now ${i}`);

    const second = platform.bot({ handlers: [Echo], position: store });
    await second.bot.start();
    const replies = async () =>
      (await platform.messages(platform.general, 20)).filter((m) => m.reply_to === missed.id).map((m) => m.content);
    await until(async () => (await replies()).length > 0, 'the missed message was answered');
    await second.bot.stop();

    expect(await replies()).toEqual(['echo m while down']);
    const said = second.logs.lines().map((l) => l.msg);
    expect(said).toContain('resuming after the stored position');
    expect(said).not.toContain('gateway gap: dispatching missed messages');
  });
});
