import { performance } from 'node:perf_hooks';
import { createBot, MemoryPositionStore, type MessageContext, OnMessage } from '@boardbot/core';
import { type EditMessageBody, type Message, silentLogger } from '@boardbot/protocol';
import { type RequestOptions, RestClient } from '@boardbot/rest';
import { startCountingProxy, until } from '@boardbot/test-support';
import { createTestPlatform } from '@boardbot/testing';
import { expect, it } from 'vitest';
import { record } from './lib/record.js';

// 100 answers of 2,000 characters streamed at once by one bot on the emulator's real rate limit (50
// requests a second). Two figures: the edits sent against the most the limit left for edits in the
// same time (how much of the budget streaming uses), and the time to the last final edit against the
// floor the limit sets (every answer needs at least its post and its final edit).

const ANSWERS = 100;
const LIMIT_PER_S = 50;
const SOURCE_MS = 2000;
const textOf = (i: number) => `Answer ${i}: ${'streamed words '.repeat(140)}`.slice(0, 2000);

let edits = 0;
class CountingRest extends RestClient {
  override editMessage(boardId: string, messageId: string, body: EditMessageBody, o?: RequestOptions) {
    edits++;
    return super.editMessage(boardId, messageId, body, o);
  }
}

class Streamer {
  @OnMessage(/^ask \d+$/)
  async ask(ctx: MessageContext) {
    const text = textOf(Number(ctx.message.content?.slice(4)));
    // A model: 20 pieces over SOURCE_MS.
    async function* model() {
      for (let i = 0; i < 20; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, SOURCE_MS / 20));
        yield text.slice(i * 100, i * 100 + 100);
      }
    }
    await ctx.stream(model());
  }
}

class NeverStarted {
  @OnMessage('never')
  never() {}
}

it('streams 100 answers of 2,000 characters at once within the rate limit', async () => {
  const platform = await createTestPlatform({ handlers: [NeverStarted], start: false, timeoutMs: 120_000 });
  const proxy = await startCountingProxy(platform.urls.apiUrl);
  const rest = new CountingRest({ token: platform.token, baseUrl: proxy.apiUrl, logger: silentLogger });
  const bot = createBot({
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
  try {
    const alice = platform.person('alice');
    // The clock starts with the first question: the bot answers while the others are posted.
    const start = performance.now();
    const asked: Message[] = await Promise.all(Array.from({ length: ANSWERS }, (_, i) => alice.say(`ask ${i}`)));
    const complete = async () => {
      const byReply = new Map((await platform.messages()).map((m) => [m.reply_to, m]));
      return asked.every((a, i) => byReply.get(a.id)?.content === textOf(i));
    };
    await until(complete, 'every answer complete', { timeoutMs: 120_000, intervalMs: 250 });
    const seconds = (performance.now() - start) / 1000;
    expect(proxy.limited).toEqual([]);

    // The limit gives LIMIT_PER_S requests a window; the posts take ANSWERS of them.
    const allowedEdits = LIMIT_PER_S * Math.ceil(seconds) - ANSWERS;
    // Each answer needs its post and its final edit: 2 × ANSWERS requests, the first window's at once.
    const floor = Math.max(SOURCE_MS / 1000, Math.ceil((2 * ANSWERS) / LIMIT_PER_S) - 1);
    record(
      {
        bench: 'core: 100 streamed answers',
        subject: 'edits sent ÷ edits the limit allowed',
        value: edits,
        unit: 'edits',
        ratio: edits / allowedEdits,
        note: `${allowedEdits} allowed in ${Math.ceil(seconds)} windows; 0 × 429`,
      },
      {
        bench: 'core: 100 streamed answers',
        subject: 'time to the last final edit ÷ floor',
        value: seconds,
        unit: 's',
        ratio: seconds / floor,
        note: `floor ${floor} s (source ${SOURCE_MS / 1000} s; ${2 * ANSWERS} requests at ${LIMIT_PER_S}/s)`,
      },
    );
    console.log(`edits ${edits} of ${allowedEdits} allowed; ${seconds.toFixed(2)} s against a floor of ${floor} s`);
  } finally {
    await bot.stop();
    await rest.close();
    await proxy.close();
    await platform.close();
  }
});
