import { type MessageContext, OnMessage } from '@boardbot/core';
import { keyBasis, writeKey } from '@boardbot/core/internal';
import { until } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { useBotBehindProxy } from './support/bot-behind-proxy.js';

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
