import { handlerCallOptions, type MessageContext, OnMessage } from '@boardbot/core';
import { keyBasis, writeKey } from '@boardbot/core/internal';
import { RestClient } from '@boardbot/rest';
import { HttpFaultProxy, until } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { useBotBehindProxy } from './support/bot-behind-proxy.js';
import { TestPlatform } from './support/platform.js';

class Direct {
  // Writes through the REST client itself, not through the context's methods.
  @OnMessage('direct')
  async post(ctx: MessageContext) {
    await ctx.rest.sendMessage(ctx.boardId, { content: 'first direct write' });
    await ctx.rest.sendMessage(ctx.boardId, { content: 'second direct write' });
  }
}

describe('ctx.rest used directly inside a handler', () => {
  // Between the bot and the emulator: it records the headers each request carried on the wire.
  const behind = useBotBehindProxy({ handlers: [Direct] });

  it('sends an Idempotency-Key derived from the event with each write, in order', async () => {
    const { platform, proxy } = behind();
    const trigger = await platform.post(platform.alice, platform.random, 'direct');
    await until(
      async () => (await platform.messages(platform.random, 5)).some((m) => m.content === 'second direct write'),
      'both writes reached the board',
    );
    const sent = proxy.seen.filter(
      (r) => r.method === 'POST' && r.url === `/api/v1/boards/${platform.random.id}/messages`,
    );
    const event = { name: 'message.create', id: '', data: { type: 'message.create', message: trigger } } as const;
    const run = { keyBasis: keyBasis(event), handler: 'Direct.post' };
    // The keys a run of this message makes, live or after a restart: not a fresh random key per call.
    expect(sent.map((r) => r.headers['idempotency-key'])).toEqual([writeKey(run, 0), writeKey(run, 1)]);
  });
});

describe('a REST client given to createBot (docs/production.md)', () => {
  it('with callDefaults: handlerCallOptions, carries the event-derived keys; without, the bot warns at start', async () => {
    const platform = await TestPlatform.start();
    const proxy = await HttpFaultProxy.start(platform.emu.urls?.url ?? '');
    const own = new RestClient({ token: platform.token, baseUrl: proxy.apiUrl, callDefaults: handlerCallOptions });
    const bare = new RestClient({ token: platform.token, baseUrl: proxy.apiUrl });
    const warning = (lines: Record<string, unknown>[]) =>
      lines.filter(
        (l) => l.level === 40 && String(l.msg).startsWith('the REST client given to createBot has no callDefaults'),
      );
    try {
      const unwarned = platform.bot({ handlers: [Direct], rest: bare });
      expect(warning(unwarned.logs.lines())).toHaveLength(1);

      const started = platform.bot({ handlers: [Direct], rest: own, apiUrl: proxy.apiUrl });
      expect(warning(started.logs.lines())).toEqual([]);
      await started.bot.start();
      const trigger = await platform.post(platform.alice, platform.random, 'direct');
      await until(
        async () => (await platform.messages(platform.random, 5)).some((m) => m.content === 'second direct write'),
        'both writes reached the board',
      );
      await started.bot.stop();
      // stop() leaves the client open: it stays the author's.
      await expect(own.getApp()).resolves.toMatchObject({ id: expect.any(String) });
      const sent = proxy.seen.filter(
        (r) => r.method === 'POST' && r.url === `/api/v1/boards/${platform.random.id}/messages`,
      );
      const event = { name: 'message.create', id: '', data: { type: 'message.create', message: trigger } } as const;
      const run = { keyBasis: keyBasis(event), handler: 'Direct.post' };
      expect(sent.map((r) => r.headers['idempotency-key'])).toEqual([writeKey(run, 0), writeKey(run, 1)]);
    } finally {
      await own.close();
      await bare.close();
      await proxy.close();
      await platform.close();
    }
  });
});
