import { Command, type MessageContext, OnMessage } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred } from '../support.js';
import { MemorySource } from './memory-source.js';

/** Echoes a message; `slow ...` waits for the test to let it finish. */
class Echo {
  static gate = deferred();

  @OnMessage(/^echo /)
  echo(ctx: MessageContext) {
    return `heard ${ctx.message.content?.slice(5)}`;
  }

  @OnMessage(/^slow /)
  async slow(ctx: MessageContext) {
    await Echo.gate.promise;
    return `late ${ctx.message.content?.slice(5)}`;
  }
}

@Command({ name: 'noop', description: 'Never invoked here' })
class Noop {
  run() {
    return 'noop';
  }
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe('an event source of a test’s own (the third beside the gateway and the Redis consumer)', () => {
  it('feeds a real bot, whose answers go out through its REST client, in its board’s order', async () => {
    const source = new MemorySource();
    platform = await createTestPlatform({ handlers: [Echo, Noop], source });
    const alice = platform.person('alice');
    // The person writes on the platform; only the source tells the bot (it opened no gateway).
    const first = await alice.say('echo one');
    const second = await alice.say('echo two');
    const handled = [source.message(first), source.message(second)];
    expect(await Promise.all(handled)).toEqual([
      expect.objectContaining({ failed: false, abandoned: false }),
      expect.objectContaining({ failed: false, abandoned: false }),
    ]);
    expect((await platform.bot.nextMessage({ replyTo: first })).content).toBe('heard one');
    expect((await platform.bot.nextMessage({ replyTo: second })).content).toBe('heard two');
    expect(platform.bot.messages().map((m) => m.content)).toEqual(['heard one', 'heard two']);
    expect(platform.logs.find({ msg: 'bot started' })).toEqual([
      expect.objectContaining({ source: 'memory', commands: 1 }),
    ]);
    expect(source.calls).toEqual(['start']);
  });

  it('is paused first at a stop, and closed once the handlers it fed finished', async () => {
    Echo.gate = deferred();
    const source = new MemorySource();
    platform = await createTestPlatform({ handlers: [Echo], source });
    const message = await platform.person('bob').say('slow two');
    const handled = source.message(message);
    await expect.poll(() => platform?.bot.runtime.pending).toBe(1);
    const stopped = platform.bot.runtime.stop();
    await expect.poll(() => source.calls).toEqual(['start', 'pause']);
    expect(() => source.message(message)).toThrow(/paused/);
    Echo.gate.resolve();
    await handled;
    expect(await stopped).toEqual({ abandoned: [], unhandled: 0 });
    expect(source.calls).toEqual(['start', 'pause', 'close']);
    expect((await platform.bot.nextMessage({ replyTo: message })).content).toBe('late two');
  });

  it('is told when the stop gives up on what it fed, before it is closed', async () => {
    Echo.gate = deferred();
    const source = new MemorySource();
    platform = await createTestPlatform({ handlers: [Echo], source, shutdownTimeoutMs: 50 });
    const handled = source.message(await platform.person('bob').say('slow never'));
    const report = await platform.bot.runtime.stop();
    expect(report.abandoned).toEqual([expect.objectContaining({ handler: 'Echo.slow' })]);
    expect(source.calls).toEqual(['start', 'pause', 'abandon', 'close']);
    expect(await handled).toMatchObject({ abandoned: true });
  });
});
