import { Command, type CommandContext } from '@boardbot/core';
import { LIMITS } from '@boardbot/protocol';
import { until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

let release: () => void = () => {};
let running = false;

@Command({ name: 'late', description: 'Answers too late' })
class Late {
  async run(ctx: CommandContext) {
    running = true;
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    return ctx.reply('Finally done');
  }
}

describe('an answer after the interaction expired', () => {
  let platform: Platform;
  let started: ReturnType<Platform['bot']>;
  // The emulator's clock: moved past the 15-minute token lifetime while the handler works.
  let offset = 0;

  beforeAll(async () => {
    platform = await TestPlatform.start({ now: () => Date.now() + offset });
    started = platform.bot({ handlers: [Late] });
    await started.bot.start();
  });

  afterAll(async () => {
    await started?.bot.stop();
    await platform?.close();
  });

  it('falls back to a normal message on the board, and says so in the log', async () => {
    const interaction = await platform.invoke(platform.alice, platform.general, 'late');
    await until(() => running, 'the handler started');
    offset = LIMITS.interactionTtlMs + 60_000;
    release();
    await until(
      async () => (await platform.messages(platform.general, 5)).some((m) => m.content === 'Finally done'),
      'the answer',
    );
    const message = (await platform.messages(platform.general, 5)).find((m) => m.content === 'Finally done');
    expect(message).toMatchObject({ kind: 'default', interaction: null });
    const warning = started.logs.lines().find((l) => l.msg?.toString().startsWith('interaction expired'));
    expect(warning).toMatchObject({ interaction_id: interaction.id, level: 40 });
    expect(
      started.logs.lines().some((l) => l.msg === 'command finished without replying: the person sees no answer'),
    ).toBe(false);
  });
});
