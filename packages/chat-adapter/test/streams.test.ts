import { createBoardAdapter } from '@boardbot/chat-adapter';
import { type CountingProxy, eventuallyValue, startCountingProxy } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { createMemoryState } from '@chat-adapter/state-memory';
import { Chat } from 'chat';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botMessagesOn } from './support/board.js';
import { TextSource } from './support/text-source.js';

// 50 answers streamed at once, each asking for an edit every 100 ms (500 edits a second wanted), on
// the contract's default limit of 50 requests a second: every call of the adapter goes through the
// REST client's queue, and each stream keeps one edit at a time carrying all its text so far, so
// the platform never answers 429 and every answer ends whole. Counted on the wire by a proxy.

const STREAMS = 50;
const CHUNKS = 12;

let emulator: SeededEmulator;
let proxy: CountingProxy;
let bot: Chat;
let sources: TextSource[];

beforeEach(async () => {
  emulator = await startSeededEmulator();
  proxy = await startCountingProxy(emulator.apiUrl);
  sources = [];
  bot = new Chat({
    userName: 'dev-bot',
    adapters: {
      board: createBoardAdapter({
        token: emulator.token,
        baseUrl: proxy.apiUrl,
      }),
    },
    state: createMemoryState(),
    logger: 'silent',
    streamingUpdateIntervalMs: 100,
  });
  bot.onNewMention(async (thread) => {
    const source = new TextSource();
    sources.push(source);
    await thread.post(source);
  });
  await bot.initialize();
});

afterEach(async () => {
  await bot.shutdown();
  await proxy.close();
  await emulator.close();
});

describe('50 streams at once through the adapter', () => {
  it('end whole, each in one message edited as it grew, and the platform answers no 429', async () => {
    const { general, random, alice, bob } = emulator.seed;
    const boards = [general.id, random.id];
    await Promise.all(
      Array.from({ length: STREAMS }, (_, n) =>
        emulator.control.postMessage(boards[n % 2] as string, {
          user_id: (n % 2 ? bob : alice).id,
          content: `@dev-bot stream ${n}`,
        }),
      ),
    );
    await eventuallyValue(
      async () => sources.length,
      (n) => n === STREAMS,
    );
    // Every stream writes at once, chunk after chunk, each chunk as soon as the previous one is read.
    for (let c = 0; c < CHUNKS; c++) {
      for (const source of sources) source.push(`word${c} `);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    for (const source of sources) source.end();

    const whole = Array.from({ length: CHUNKS }, (_, c) => `word${c} `).join('');
    const answers = await eventuallyValue(
      async () => (await Promise.all(boards.map((b) => botMessagesOn(emulator, b)))).flat(),
      (all) => all.length === STREAMS && all.every((m) => m.content === whole),
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(answers.every((m) => m.edited_at !== null && m.reply_to !== null)).toBe(true);
    expect(proxy.limited).toEqual([]);
    expect(proxy.statuses.get(429) ?? 0).toBe(0);
  }, 90_000);
});
