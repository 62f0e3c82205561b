import { Command, MemoryPositionStore } from '@boardbot/core';
import { LIMITS } from '@boardbot/protocol';
import { until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

@Command({ name: 'quick', description: 'Answers at once' })
class Quick {
  run() {
    return 'quick answer';
  }
}

const EXPIRED_REPLAY = 'the interaction expired before this replay could answer it';

describe('an interaction replayed after its token expired', () => {
  let platform: Platform;
  // The emulator's clock: moved past the 15-minute token lifetime while the bot is down.
  let offset = 0;

  beforeAll(async () => {
    platform = await TestPlatform.start({ now: () => Date.now() + offset });
  });

  afterAll(() => platform?.close());

  it('is not answered on the board instead: the runtime logs BOARDBOT_INTERACTION_EXPIRED and stops there', async () => {
    const store = new MemoryPositionStore();
    const first = platform.bot({ handlers: [Quick], position: store });
    await first.bot.start();
    await first.bot.stop();
    // Invoked while the bot is down, and still unanswered when its token expires.
    const interaction = await platform.invoke(platform.alice, platform.general, 'quick');
    offset = LIMITS.interactionTtlMs + 60_000;

    const second = platform.bot({ handlers: [Quick], position: store });
    await second.bot.start();
    await until(
      () => second.logs.lines().some((l) => String(l.msg).startsWith(EXPIRED_REPLAY)),
      'the replay met the expired token',
    );
    await second.bot.stop();

    const line = second.logs.lines().find((l) => String(l.msg).startsWith(EXPIRED_REPLAY));
    expect(line).toMatchObject({ code: 'BOARDBOT_INTERACTION_EXPIRED', handler: 'Quick.run', level: 30 });
    expect(second.logs.lines().some((l) => String(l.msg).startsWith('interaction expired: answering'))).toBe(false);
    expect((await platform.answers(interaction.id, 1, 0)).answers).toEqual([]);
    expect((await platform.messages(platform.general, 20)).map((m) => m.content)).not.toContain('quick answer');
  });
});
