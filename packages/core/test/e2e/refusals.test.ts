import { Command, type CommandContext, Cooldown } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/guards-middleware-cooldowns.md, "Refusals to one person", and docs/commands-and-options.md,
// "Text commands": a text command's refusals are messages on the board that spend the app's shared
// rate limit, so one person's flood is told once a window; a mistyped command gets the nearest names.

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

const isRefusal = (m: Message) => m.content?.startsWith('Slow down: !daily') === true;

describe("a text command's refusals", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({
      handlers: [Daily, Ping, Language],
      textCommands: { refusalIntervalMs: 10 * 60 * 1000 },
    });
  });
  afterAll(() => platform?.close());

  // Issue 40, "refusals do not amplify a flood": 120 `!daily` on cooldown were 120 refusals, each a
  // message in the app's 50-a-second window, ahead of everyone else's answers.
  it("are posted once a window to a person who floods a command, and others' answers do not wait behind them", async () => {
    const flooder = platform.person('mallory');
    const general = (await platform.board('general')).id;
    await flooder.say('!daily');
    await platform.bot.nextMessage({ content: 'your daily bonus' });
    for (let i = 0; i < 120; i++) await flooder.say('!daily');
    const asked = await platform.person('bob').say('!ping', { board: 'random' });
    await platform.bot.nextMessage({ replyTo: asked });
    // When bob is answered, the flood has had one refusal at most, not one per message.
    const refusedBefore = platform.bot.messages().filter((m) => m.board_id === general && isRefusal(m)).length;
    expect(refusedBefore).toBeLessThanOrEqual(1);
    await platform.settle();
    expect(platform.bot.messages().filter(isRefusal)).toHaveLength(1);
    expect(platform.bot.messages().filter((m) => m.content === 'your daily bonus')).toHaveLength(1);
  });

  it('answer a mistyped command with the nearest names, once a window, and ignore a name close to none', async () => {
    const person = platform.person('trent');
    const typo = await person.say('!langauge fr');
    expect((await platform.bot.nextMessage({ replyTo: typo })).content).toBe(
      'There is no !langauge. Did you mean !language?',
    );
    const far = await person.say('!weather today');
    const again = await person.say('!lnguage fr');
    const ok = await person.say('!ping');
    await platform.bot.nextMessage({ replyTo: ok });
    await platform.settle();
    expect(platform.bot.messages({ replyTo: far })).toHaveLength(0);
    expect(platform.bot.messages({ replyTo: again })).toHaveLength(0);
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
