import { Command, Cooldown, MemorySessionStore, type MessageContext, OnMessage } from '@boardbot/core';
import { Cooldowns } from '@boardbot/core/internal';
import { until } from '@boardbot/test-support';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherInstance, HeldPositions } from './support.js';

// docs/guards-middleware-cooldowns.md, "Cooldowns", through the runtime on the emulator. How a
// cooldown sits among the guards, the option checks and the middleware: guards-and-order.test.ts.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Listeners with cooldowns: per board, and per person (the default, each webhook name apart). */
class Cheers {
  // At most 2 a window per board, however many people cheer.
  @OnMessage('!cheer')
  @Cooldown({ ms: 60_000, uses: 2, per: 'board' })
  cheer(ctx: MessageContext) {
    return `cheers ${ctx.authorName}`;
  }

  @OnMessage('!wave')
  @Cooldown({ ms: 60_000 })
  wave(ctx: MessageContext) {
    return `wave ${ctx.authorName}`;
  }
}

@Command({ name: 'global', description: 'Once a day for the whole app' })
@Cooldown({ ms: DAY_MS, per: 'app' })
class Global {
  run() {
    return 'global';
  }
}

/** One cooldown on the class; one method has its own, which wins. */
@Cooldown({ ms: 60_000 })
class Shared {
  @OnMessage('!first')
  first() {
    return 'first';
  }

  @OnMessage('!second')
  second() {
    return 'second';
  }

  @OnMessage('!third')
  @Cooldown({ ms: 60_000, uses: 2 })
  third() {
    return 'third';
  }
}

describe('cooldowns', () => {
  let platform: TestPlatform;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock('2026-03-02T09:00:00Z');
    platform = await createTestPlatform({ handlers: [Cheers, Global, Shared], clock });
  });
  afterAll(() => platform?.close());

  it("counts a per-board cooldown's uses for everyone on the board, skips a held listener silently, and frees it on the bot's clock", async () => {
    const alice = platform.person('alice');
    const bob = platform.person('bob');
    const one = await alice.say('!cheer');
    const two = await bob.say('!cheer');
    const three = await bob.say('!cheer');
    const elsewhere = await bob.say('!cheer', { board: 'random' });
    expect((await platform.bot.nextMessage({ replyTo: one })).content).toBe('cheers Alice');
    expect((await platform.bot.nextMessage({ replyTo: two })).content).toBe('cheers Bob');
    expect((await platform.bot.nextMessage({ replyTo: elsewhere })).content).toBe('cheers Bob');
    await platform.settle();
    expect(platform.bot.messages({ replyTo: three })).toHaveLength(0);
    expect(platform.logs.find({ level: 'info', msg: 'cooldown holds' })).toContainEqual(
      expect.objectContaining({ handler: 'Cheers.cheer' }),
    );

    clock.advance(60_000);
    const later = await bob.say('!cheer');
    expect((await platform.bot.nextMessage({ replyTo: later })).content).toBe('cheers Bob');
  });

  it('holds a per-app cooldown for everyone, on every board', async () => {
    expect((await platform.person('alice').invoke('global')).content).toBe('global');
    expect((await platform.person('bob').invoke('global', {}, { board: 'random' })).content).toBe(
      'Slow down: /global can be used again in 86400 s.',
    );
  });

  it("gives each handler of a class its own count of the class's cooldown, and a method's own cooldown wins", async () => {
    const carl = platform.person('carl');
    const says = ['!first', '!first', '!second', '!third', '!third', '!third'];
    const sent = [];
    for (const text of says) sent.push(await carl.say(text));
    await platform.settle();
    const answered = sent.map((m) => platform.bot.messages({ replyTo: m })[0]?.content ?? null);
    expect(answered).toEqual(['first', null, 'second', 'third', 'third', null]);
  });

  it("counts a listener's per-person cooldown for each webhook name apart", async () => {
    const general = (await platform.board('general')).id;
    const post = (name: string) => platform.control.postMessage(general, { webhook_name: name, content: '!wave' });
    const [ci, ciAgain, deploy] = [await post('ci'), await post('ci'), await post('deploy')];
    await platform.settle();
    const answered = [ci, ciAgain, deploy].map((m) => platform.bot.messages({ replyTo: m })[0]?.content ?? null);
    expect(answered).toEqual(['wave ci', null, 'wave deploy']);
  });
});

class Waves {
  @OnMessage('!wave')
  @Cooldown({ ms: DAY_MS })
  wave(ctx: MessageContext) {
    return `wave ${ctx.authorName}`;
  }
}

describe('cooldown counts', () => {
  it('live in the process: the bot that replaces a stopped one starts with none', async () => {
    const platform = await createTestPlatform({ handlers: [Waves] });
    const next = anotherInstance(platform, { handlers: [Waves] });
    try {
      const alice = platform.person('alice');
      expect((await platform.bot.nextMessage({ replyTo: await alice.say('!wave') })).content).toBe('wave Alice');
      const held = await alice.say('!wave');
      await platform.settle();
      expect(platform.bot.messages({ replyTo: held })).toHaveLength(0);

      await platform.bot.runtime.stop();
      await next.start();
      const again = await alice.say('!wave');
      expect((await platform.bot.nextMessage({ replyTo: again })).content).toBe('wave Alice');
    } finally {
      await next.stop();
      await platform.close();
    }
  });

  it('live in the store given as `cooldowns`: the bot that replaces a stopped one holds who was held', async () => {
    // One store outliving both bots, as a database does (@boardbot/postgres runs this on PostgreSQL).
    const cooldowns = new Cooldowns(() => Date.now());
    const platform = await createTestPlatform({ handlers: [Waves], cooldowns });
    const next = anotherInstance(platform, { handlers: [Waves], cooldowns });
    try {
      const alice = platform.person('alice');
      expect((await platform.bot.nextMessage({ replyTo: await alice.say('!wave') })).content).toBe('wave Alice');
      await platform.bot.runtime.stop();
      await next.start();
      const held = await alice.say('!wave');
      const bob = await platform.person('bob').say('!wave');
      expect((await platform.bot.nextMessage({ replyTo: bob })).content).toBe('wave Bob');
      expect(platform.bot.messages({ replyTo: held })).toHaveLength(0);
    } finally {
      await next.stop();
      await platform.close();
    }
  });
});

/** Runs of `!bonus`, across the instances of the bot. */
let bonusRuns = 0;

@Command({ name: 'bonus', description: 'Three a day', text: true, editable: true })
@Cooldown({ ms: DAY_MS, uses: 3 })
class Bonus {
  run() {
    bonusRuns++;
    return 'your bonus';
  }
}

// docs/guards-middleware-cooldowns.md, "What an edit costs": the use an edit's re-run takes is named
// by the edit's event, so the edit handled again (after a crash, by the next process) takes no other.
describe("an edit's use of the cooldown", () => {
  it('is taken once when the edit is handled again after a crash', async () => {
    // Stores that outlive the bots, as a database does: the windows, the message's link to its
    // answer, and a resume point held before the edit, so that the next bot handles the edit again.
    const stores = { cooldowns: new Cooldowns(() => Date.now()), sessions: new MemorySessionStore() };
    const position = new HeldPositions();
    const platform = await createTestPlatform({ handlers: [Bonus], ...stores, position });
    const [crashing, next] = [1, 2].map(() => anotherInstance(platform, { handlers: [Bonus], ...stores, position }));
    try {
      const alice = platform.person('alice');
      const message = await alice.say('!bonus');
      expect((await platform.bot.nextMessage({ replyTo: message })).content).toBe('your bonus');
      await platform.bot.runtime.stop();
      position.held = true;
      await crashing?.start();
      await alice.edit(message, '!BONUS');
      await until(() => bonusRuns === 2, 'the edit to run');
      // Stopped with its resume point still before the edit: as if it crashed once the edit ran.
      await crashing?.stop();
      await next?.start();
      const fresh = await alice.say('!bonus');
      // Three uses a day: the message's, its edit's, and this one's. The edit ran again (a fourth run)
      // without a fourth use.
      expect((await platform.bot.nextMessage({ replyTo: fresh })).content).toBe('your bonus');
      expect(bonusRuns).toBe(4);
    } finally {
      await crashing?.stop();
      await next?.stop();
      await platform.close();
    }
  });
});
