import { Command, type CommandContext, Cooldown, type MessageContext, OnMessage, UseGuards } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/guards-middleware-cooldowns.md, "Refusals to one person", and docs/commands-and-options.md,
// "Text commands": refusals posted on a board are messages that spend the app's shared rate limit,
// so one person's flood is told once a window, whatever kind refused it; a mistyped text command
// gets the nearest names, unless a listener hears it.

@Command({ name: 'daily', description: 'Once a day', text: true })
@Cooldown({ ms: 24 * 60 * 60 * 1000 })
class Daily {
  run() {
    return 'your daily bonus';
  }
}

@Command({ name: 'ping', description: 'Pong', text: true })
class Ping {
  run(ctx: CommandContext) {
    return `pong, ${ctx.user.display_name}`;
  }
}

@Command({ name: 'language', description: 'Your language', text: true })
class Language {
  run() {
    return 'language noted';
  }
}

@Command({ name: 'apples', description: 'Counts apples', text: true })
class Apples {
  run() {
    return 'apples counted';
  }
}

class Listeners {
  // A guard's own words are a refusal posted on the board, like a command's.
  @OnMessage('!vault')
  @UseGuards(() => 'Only the keeper opens the vault.')
  vault() {
    return 'the vault opens';
  }

  // `!apple` is a listener's, though close to the text command `!apples`.
  @OnMessage('!apple')
  apple(ctx: MessageContext) {
    return `an apple for ${ctx.authorName}`;
  }
}

const WINDOW_MS = 10 * 60 * 1000;
const isRefusal = (m: Message) => m.content?.startsWith('Slow down: !daily') === true;

describe('refusals to one person', () => {
  let platform: TestPlatform;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock('2026-03-02T09:00:00Z');
    platform = await createTestPlatform({
      handlers: [Daily, Ping, Language, Apples, Listeners],
      refusalIntervalMs: WINDOW_MS,
      clock,
    });
  });
  afterAll(() => platform?.close());

  /** The order in which the bot finished handling messages: the message ids of its `handled` lines. */
  const handledOrder = () => platform.logs.find({ msg: /^handled$/ }).map((l) => l.message_id);

  // Issue 40, "refusals do not amplify a flood": 120 `!daily` on cooldown were 120 refusals, each a
  // message in the app's 50-a-second window, ahead of everyone else's answers.
  it("are posted once a window to a person who floods a command, and another board's answer does not wait behind them", async () => {
    const flooder = platform.person('mallory');
    const general = (await platform.board('general')).id;
    const first = await flooder.say('!daily');
    expect((await platform.bot.nextMessage({ replyTo: first })).content).toBe('your daily bonus');
    const flood: Message[] = [];
    for (let i = 0; i < 60; i++) flood.push(await flooder.say('!daily'));
    const asked = await platform.person('bob').say('!ping', { board: 'random' });
    for (let i = 0; i < 60; i++) flood.push(await flooder.say('!daily'));
    await platform.bot.nextMessage({ replyTo: asked });
    // When bob is answered, the flood has had one refusal at most, not one per message.
    const refusedBefore = platform.bot.messages().filter((m) => m.board_id === general && isRefusal(m)).length;
    expect(refusedBefore).toBeLessThanOrEqual(1);
    await platform.settle();
    const order = handledOrder();
    expect(order.indexOf(asked.id)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(asked.id)).toBeLessThan(order.indexOf(flood.at(-1)?.id));
    // The bot's messages, counted: the bonus, one refusal for 120 messages, bob's answer.
    const answered = [first, ...flood, asked].flatMap((m) => platform.bot.messages({ replyTo: m }));
    expect(answered.map((m) => m.content)).toEqual([
      'your daily bonus',
      expect.stringMatching(/^Slow down: !daily/),
      'pong, Bob',
    ]);
    // The rest are logged: the first held back at info, the others at debug, each with its count.
    const held = platform.logs.find({ msg: 'refusal not posted: this person was told in this window' });
    expect(held.map((l) => [l.level, l.held])).toEqual(
      Array.from({ length: 119 }, (_, i) => [i === 0 ? 'info' : 'debug', i + 1]),
    );

    // A new window: the person is told again, and the count of the last one is logged.
    clock.advance(WINDOW_MS);
    const later = await flooder.say('!daily');
    expect((await platform.bot.nextMessage({ replyTo: later })).content).toMatch(/^Slow down: !daily/);
    expect(platform.logs.find({ level: 'info', msg: 'refusals held back in the last window' })).toContainEqual(
      expect.objectContaining({ held: 119 }),
    );
  });

  it("hold a message listener's guard words to once a window for each person", async () => {
    const [trudy, victor] = [platform.person('trudy'), platform.person('victor')];
    const tries: Message[] = [];
    for (let i = 0; i < 5; i++) tries.push(await trudy.say('!vault'));
    const other = await victor.say('!vault');
    await platform.settle();
    const said = tries.flatMap((m) => platform.bot.messages({ replyTo: m })).map((m) => m.content);
    expect(said).toEqual(['Only the keeper opens the vault.']);
    expect(platform.bot.messages({ replyTo: other }).map((m) => m.content)).toEqual([
      'Only the keeper opens the vault.',
    ]);
  });

  it('answer a mistyped command with the nearest names, once a window, and ignore a name close to none', async () => {
    const person = platform.person('trent');
    const typo = await person.say('!langauge fr');
    expect((await platform.bot.nextMessage({ replyTo: typo })).content).toBe(
      'There is no !langauge. Did you mean !language?',
    );
    const far = await person.say('!weather today');
    const again = await person.say('!lnguage fr');
    const long = await platform.person('uma').say(`!${'language'.repeat(499)}`);
    const ok = await person.say('!ping');
    await platform.bot.nextMessage({ replyTo: ok });
    await platform.settle();
    expect(platform.bot.messages({ replyTo: far })).toHaveLength(0);
    expect(platform.bot.messages({ replyTo: again })).toHaveLength(0);
    // A 3,992-character word is longer than any command name: not compared, not answered.
    expect(platform.bot.messages({ replyTo: long })).toHaveLength(0);
  });

  it("leave a name a message listener hears to that listener: no did-you-mean beside the listener's answer", async () => {
    const apple = await platform.person('wendy').say('!apple');
    await platform.settle();
    expect(platform.bot.messages({ replyTo: apple }).map((m) => m.content)).toEqual(['an apple for Wendy']);
  });
});

describe('textCommands.suggest: false', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [Language, Ping], textCommands: { suggest: false } });
  });
  afterAll(() => platform?.close());

  it('leaves a mistyped command unanswered, as any other text', async () => {
    const typo = await platform.person('alice').say('!langauge fr');
    const ok = await platform.person('alice').say('!ping');
    await platform.bot.nextMessage({ replyTo: ok });
    await platform.settle();
    expect(platform.bot.messages({ replyTo: typo })).toHaveLength(0);
  });
});
