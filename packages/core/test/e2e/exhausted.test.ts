import { Command, type CommandContext } from '@boardbot/core';
import { HttpFaultProxy, until } from '@boardbot/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

/** What the handler's sixth answer came to: `sent`, or the error's code and message. */
let sixth: { code: string | undefined; message: string } | 'sent' | undefined;

@Command({ name: 'chatty', description: 'Answers six times' })
class Chatty {
  async run(ctx: CommandContext) {
    await ctx.reply('answer 1');
    for (let n = 2; n <= 5; n++) await ctx.followUp(`answer ${n}`);
    sixth = await ctx.followUp('answer 6').then(
      () => 'sent' as const,
      (e: Error & { code?: string }) => ({ code: e.code, message: e.message }),
    );
  }
}

describe('a sixth answer to one interaction', () => {
  let platform: Platform;
  let proxy: HttpFaultProxy;
  let started: ReturnType<Platform['bot']> | undefined;

  beforeEach(async () => {
    sixth = undefined;
    platform = await TestPlatform.start();
    proxy = await HttpFaultProxy.start(platform.emu.urls?.url ?? '');
    // CONTRACT: up to 5 answers per interaction token; a sixth is 410 interaction_exhausted. The
    // proxy plays that part of the platform, so the test does not depend on the emulator's version.
    const answers = new Map<string, number>();
    proxy.faultWith((request) => {
      if (request.method !== 'POST' || !request.url.startsWith('/api/v1/interactions/')) return undefined;
      const n = (answers.get(request.url) ?? 0) + 1;
      answers.set(request.url, n);
      if (n <= 5) return undefined;
      return {
        status: 410,
        headers: { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '49', 'x-ratelimit-reset': '1.000' },
        body: { error: { code: 'interaction_exhausted', message: 'This interaction has had its 5 answers' } },
      };
    });
  });

  afterEach(async () => {
    await started?.bot.stop();
    await proxy.close();
    await platform.close();
  });

  const boardContents = async () => (await platform.messages(platform.general, 20)).map((m) => m.content);

  it('fails with BOARDBOT_INTERACTION_EXHAUSTED by default, saying why and how to opt in', async () => {
    started = platform.bot({ handlers: [Chatty], apiUrl: proxy.apiUrl });
    await started.bot.start();
    const interaction = await platform.invoke(platform.alice, platform.general, 'chatty');
    await until(() => sixth !== undefined, 'the sixth answer was tried');
    expect(sixth).toMatchObject({
      code: 'BOARDBOT_INTERACTION_EXHAUSTED',
      message: expect.stringMatching(/\/chatty .*5 answers per interaction.*exhaustedInteraction: 'send'/),
    });
    const view = await platform.answers(interaction.id, 5);
    expect(view.answers.map((m) => m.content)).toEqual(['answer 1', 'answer 2', 'answer 3', 'answer 4', 'answer 5']);
    expect(await boardContents()).not.toContain('answer 6');
  });

  it("with exhaustedInteraction: 'send', posts it on the board instead and says so in the log", async () => {
    started = platform.bot({ handlers: [Chatty], apiUrl: proxy.apiUrl, exhaustedInteraction: 'send' });
    await started.bot.start();
    const interaction = await platform.invoke(platform.alice, platform.general, 'chatty');
    await until(() => sixth !== undefined, 'the sixth answer was tried');
    expect(sixth).toBe('sent');
    const message = (await platform.messages(platform.general, 20)).find((m) => m.content === 'answer 6');
    expect(message).toMatchObject({ kind: 'default', interaction: null });
    const warning = started.logs.lines().find((l) => String(l.msg).startsWith('interaction exhausted'));
    expect(warning).toMatchObject({ interaction_id: interaction.id, level: 40 });
  });

  it('refuses an exhaustedInteraction that is neither error nor send', () => {
    expect(() => platform.bot({ handlers: [Chatty], exhaustedInteraction: 'drop' as 'send' })).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_INVALID_CONFIG',
        message: expect.stringMatching(/exhaustedInteraction/),
      }),
    );
  });
});
