import { createBot, MemoryPositionStore, type MessageContext, OnMessage } from '@boardbot/core';
import { type EditMessageBody, type Message, silentLogger } from '@boardbot/protocol';
import { type RequestOptions, RestClient } from '@boardbot/rest';
import { type CountingProxy, startCountingProxy, until } from '@boardbot/test-support';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paced } from './sources.js';

// docs/assistants.md, "Streaming inside the rate limit": 50 answers streamed at once by one bot, on
// the emulator's real rate limit (50 requests a second), never draw a 429: their edits wait in the
// REST client's queue, one per answer at a time, each carrying all the text so far.

const ANSWERS = 50;
const THROTTLE_MS = 1000;
const textOf = (i: number) => `Answer ${i}: ${'streamed words '.repeat(140)}`.slice(0, 2000);

/** When the stream asked for each edit (before the rate-limit queue), by message id. */
const editsAsked = new Map<string, number[]>();

/** The bot's REST client, noting when each edit is asked for. */
class NotingRest extends RestClient {
  override editMessage(boardId: string, messageId: string, body: EditMessageBody, o?: RequestOptions) {
    editsAsked.set(messageId, [...(editsAsked.get(messageId) ?? []), Date.now()]);
    return super.editMessage(boardId, messageId, body, o);
  }
}

class Streamer {
  @OnMessage(/^ask \d+$/)
  ask(ctx: MessageContext) {
    // A model giving 2,000 characters in 20 pieces over about 3 seconds.
    return ctx.stream(paced(textOf(Number(ctx.message.content?.slice(4))), 20, 150), { throttleMs: THROTTLE_MS });
  }
}

class NeverStarted {
  @OnMessage('never')
  never() {}
}

describe('50 answers streamed at once on the real rate limit', () => {
  let platform: TestPlatform;
  let proxy: CountingProxy;
  let rest: RestClient;
  let bot: ReturnType<typeof createBot>;

  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [NeverStarted], start: false, timeoutMs: 60_000 });
    proxy = await startCountingProxy(platform.urls.apiUrl);
    rest = new NotingRest({ token: platform.token, baseUrl: proxy.apiUrl, logger: silentLogger });
    bot = createBot({
      token: platform.token,
      apiUrl: proxy.apiUrl,
      rest,
      handlers: [Streamer],
      logger: silentLogger,
      handleSignals: false,
      commandSync: 'off',
      position: new MemoryPositionStore(),
      orderBy: 'none',
      concurrency: ANSWERS,
    });
    await bot.start();
  });

  afterAll(async () => {
    await bot?.stop();
    await rest?.close();
    await proxy?.close();
    await platform?.close();
  });

  it('draw no 429, end each answer with its whole text, and edit each at most once per throttle', async () => {
    const alice = platform.person('alice');
    const asked: Message[] = await Promise.all(Array.from({ length: ANSWERS }, (_, i) => alice.say(`ask ${i}`)));
    const answers = async () => {
      const byReply = new Map((await platform.messages()).map((m) => [m.reply_to, m]));
      return asked.map((a) => byReply.get(a.id));
    };
    await until(async () => (await answers()).every((m, i) => m?.content === textOf(i)), 'every answer complete', {
      timeoutMs: 60_000,
      intervalMs: 250,
    });

    expect(proxy.limited).toEqual([]);
    expect(proxy.statuses.get(429)).toBeUndefined();
    const finals = await answers();
    for (const m of finals) {
      const asks = editsAsked.get(m?.id ?? '') ?? [];
      expect(asks.length).toBeGreaterThan(0);
      // The throttle holds per answer: no two edits asked for closer than THROTTLE_MS (less the
      // millisecond the stream's clock and this one can tick apart between their two reads).
      const gaps = asks.slice(1).map((at, k) => at - (asks[k] as number));
      expect(gaps.filter((gap) => gap < THROTTLE_MS - 1)).toEqual([]);
    }
  }, 90_000);
});
