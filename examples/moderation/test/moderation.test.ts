import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationBot } from '../src/bot.js';

// Time is the test's: the same manual clock drives the runtime's cooldowns and the moderator's
// flood windows and delayed deletions.
const clock = new TestClock();
const WARNING_TTL_MS = 30_000;
let platform: TestPlatform;

beforeAll(async () => {
  platform = await createTestPlatform({
    bot: (base) =>
      createModerationBot({
        ...base,
        clock,
        rules: {
          allowedHosts: ['example.com'],
          flood: { messages: 3, windowMs: 10_000 },
          warningTtlMs: WARNING_TTL_MS,
        },
      }),
  });
});
afterAll(() => platform?.close());

describe('banned words', () => {
  it('warns in a reply, counts a strike, and deletes the warning after the delay', async () => {
    const said = await platform.person('bob').say('oh darn it');
    const warning = await platform.bot.nextMessage({ replyTo: said });
    expect(warning.content).toBe('⚠️ Bob, please keep it civil: "darn" is not allowed here. (strike 1)');
    // The warning is visible before its handler has set the deletion timer: let the handler finish.
    await platform.settle();

    clock.advance(WARNING_TTL_MS - 1);
    await platform.settle();
    expect(platform.bot.messages({ id: warning.id })[0]?.deleted_at).toBeNull();

    clock.advance(1);
    const tombstone = await platform.bot.nextDelete({ id: warning.id });
    expect(tombstone.content).toBeNull();
    // The person's own message stays: a bot may delete only its own messages.
    expect((await platform.messages()).find((m) => m.id === said.id)?.deleted_at).toBeNull();
  });

  it('leaves clean messages alone, and never reacts to its own warnings', async () => {
    const before = platform.bot.messages().length;
    await platform.person('alice').say('a perfectly nice day');
    await platform.person('alice').say('the heckler was funny');
    await platform.settle();
    expect(platform.bot.messages()).toHaveLength(before);
  });
});

describe('links', () => {
  it('warns about a link to a host that is not allowed, once per cooldown', async () => {
    const bob = platform.person('bob');
    const fine = await bob.say('docs at https://docs.example.com/start', { board: 'random' });
    const spam = await bob.say('cheap watches at https://spam.test/buy', { board: 'random' });
    const warning = await platform.bot.nextMessage({ replyTo: spam });
    expect(warning.content).toBe('⚠️ Bob, links to spam.test are not allowed here. (strike 1)');

    const again = await bob.say('really, https://spam.test/buy', { board: 'random' });
    await platform.settle();
    expect(platform.bot.messages({ replyTo: again })).toEqual([]);
    expect(platform.bot.messages({ replyTo: fine })).toEqual([]);

    clock.advance(60_000);
    const later = await bob.say('one more https://spam.test', { board: 'random' });
    expect((await platform.bot.nextMessage({ replyTo: later })).content).toMatch(/spam\.test .*\(strike 2\)/);
  });

  it('lets owners and admins post any link', async () => {
    const owner = await platform.person('alice').say('see https://spam.test/report', { board: 'random' });
    await platform.settle();
    expect(platform.bot.messages({ replyTo: owner })).toEqual([]);
    expect(platform.logs.find({ msg: 'guard denied' }).some((l) => l.message_id === owner.id)).toBe(true);
  });
});

describe('floods', () => {
  it('warns the person who posts too much too fast, once', async () => {
    const erin = platform.person('erin');
    for (const n of [1, 2, 3]) await erin.say(`message ${n}`);
    const fourth = await erin.say('message 4');
    expect((await platform.bot.nextMessage({ replyTo: fourth })).content).toBe(
      '⚠️ Erin, slow down: more than 3 messages in 10 s. (strike 1)',
    );
    const fifth = await erin.say('message 5');
    await platform.settle();
    expect(platform.bot.messages({ replyTo: fifth })).toEqual([]);
  });

  it('lets the same number of messages through when they are spread out', async () => {
    const fay = platform.person('fay');
    for (const n of [1, 2, 3, 4, 5]) {
      await fay.say(`spread ${n}`);
      // The bot reads the clock when it handles the message: let it, then move time.
      await platform.settle();
      clock.advance(5_000);
    }
    await platform.settle();
    expect(platform.bot.messages({ content: 'Fay' })).toEqual([]);
  });
});

describe('/mod', () => {
  it('is refused to people who are not owners or admins of the board', async () => {
    const answer = await platform.person('bob').invoke('mod words');
    expect(answer.content).toBe('Only board owners and admins can use /mod.');
    expect(platform.logs.find({ msg: 'guard denied' })).not.toHaveLength(0);
  });

  it('shows and forgives strikes, for an owner', async () => {
    const alice = platform.person('alice');
    const bob = await platform.person('bob').profile();
    expect((await alice.invoke('mod strikes', { user: bob.id })).content).toBe('Bob has 1 strike on this board.');
    expect((await alice.invoke('mod forgive', { user: bob.id })).content).toBe('Forgiven: Bob’s 1 strike are cleared.');
  });

  it('holds /mod strikes for a few seconds per person', async () => {
    const alice = platform.person('alice');
    const bob = await platform.person('bob').profile();
    const held = await alice.invoke('mod strikes', { user: bob.id });
    expect(held.content).toMatch(/^Slow down: \/mod strikes can be used again in \d s\.$/);
    clock.advance(5_000);
    expect((await alice.invoke('mod strikes', { user: bob.id })).content).toBe('Bob has 0 strikes on this board.');
  });

  it('lets an admin ban and unban words, which the listeners use at once', async () => {
    const gus = platform.person('gus', { role: 'admin' });
    expect((await gus.invoke('mod ban', { word: 'Pineapple' })).content).toBe('"pineapple" is banned now.');
    expect((await gus.invoke('mod words')).content).toBe('Banned words: darn, heck, pineapple.');
    const said = await platform.person('bob').say('pineapple on pizza');
    expect((await platform.bot.nextMessage({ replyTo: said })).content).toMatch(/"pineapple" is not allowed/);
    expect((await gus.invoke('mod unban', { word: 'pineapple' })).content).toBe('"pineapple" is allowed again.');
  });

  it('explains a word it cannot ban', async () => {
    const answer = await platform.person('alice').invoke('mod ban', { word: 'two words' });
    expect(answer.content).toBe('Sorry, /mod ban cannot run:\n- word must be a single word');
  });
});

describe('with the real clock', () => {
  it('deletes its warnings after a short configured delay', async () => {
    const real = await createTestPlatform({
      bot: (base) => createModerationBot({ ...base, rules: { warningTtlMs: 50 } }),
    });
    try {
      const said = await real.person('bob').say('heck');
      const warning = await real.bot.nextMessage({ replyTo: said });
      expect((await real.bot.nextDelete({ id: warning.id })).deleted_at).not.toBeNull();
    } finally {
      await real.close();
    }
  });
});
