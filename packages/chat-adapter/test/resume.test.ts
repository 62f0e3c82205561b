import { type RedisServer, startRedisServer } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { createRedisState } from '@chat-adapter/state-redis';
import type { Chat, Logger } from 'chat';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repliesTo } from './support/board.js';
import { chatOn } from './support/docs-bot.js';

// The resume point in Chat's Redis state: a bot stopped and started again answers what was written
// while it was away, and says so when the platform no longer keeps those events (a gap).

let redis: RedisServer;
let emulator: SeededEmulator | undefined;
let bot: Chat | undefined;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis.close());
afterEach(async () => {
  await bot?.shutdown();
  await emulator?.close();
  bot = undefined;
});

/** A Chat logger that keeps its warnings. */
function warningsOf(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (message) => warnings.push(message),
    error: () => {},
    child: () => logger,
  };
  return { logger, warnings };
}

async function startBot(prefix: string, logger?: Logger): Promise<Chat> {
  const state = createRedisState({ url: redis.url, keyPrefix: prefix });
  const chat = chatOn(emulator as SeededEmulator, {}, state, logger);
  chat.onNewMention(async (thread, message) => {
    await thread.post(`answer to ${message.text}`);
  });
  await chat.initialize();
  return chat;
}

describe('the resume point in Redis', () => {
  it('answers after a restart what was written while the bot was stopped', async () => {
    emulator = await startSeededEmulator();
    const { general, alice } = emulator.seed;
    bot = await startBot('resume-a');
    const first = await emulator.control.postMessage(general.id, { user_id: alice.id, content: '@dev-bot one' });
    await repliesTo(emulator, first);
    await bot.shutdown();
    bot = undefined;
    const away = await emulator.control.postMessage(general.id, { user_id: alice.id, content: '@dev-bot two' });
    bot = await startBot('resume-a');
    const [answer] = await repliesTo(emulator, away);
    expect(answer?.content).toBe('answer to @dev-bot two');
    expect(await repliesTo(emulator, first)).toHaveLength(1);
  });

  it('keeps, from its first start, what is written before its first event settles', async () => {
    // Killed (or stopped) before it settled any event, a first start stored the live stream's cursor
    // already: the next start resumes from there, not from "now".
    emulator = await startSeededEmulator();
    const { general, alice } = emulator.seed;
    bot = await startBot('resume-first');
    await bot.shutdown();
    bot = undefined;
    const away = await emulator.control.postMessage(general.id, { user_id: alice.id, content: '@dev-bot early' });
    bot = await startBot('resume-first');
    const [answer] = await repliesTo(emulator, away);
    expect(answer?.content).toBe('answer to @dev-bot early');
  });

  it('warns when the platform no longer keeps the events after it (a gap)', async () => {
    let now = Date.parse('2026-11-28T10:00:00.000Z');
    emulator = await startSeededEmulator({
      limits: { retainedEvents: 1, retainedEventsMs: 1000 },
      rateLimit: { requests: 1_000_000 },
      now: () => now,
    });
    const { general, alice } = emulator.seed;
    bot = await startBot('resume-b');
    const first = await emulator.control.postMessage(general.id, { user_id: alice.id, content: '@dev-bot one' });
    await repliesTo(emulator, first);
    await bot.shutdown();
    bot = undefined;
    // Written while the bot is away, then pruned: an event later, they are older than the platform keeps.
    for (const n of [2, 3, 4]) {
      await emulator.control.postMessage(general.id, { user_id: alice.id, content: `@dev-bot ${n}` });
    }
    now += 60_000;
    await emulator.control.postMessage(general.id, { user_id: alice.id, content: 'later' });
    const { logger, warnings } = warningsOf();
    bot = await startBot('resume-b', logger);
    expect(warnings).toContain('events after the resume point are no longer kept by the platform: they were missed');
  });
});
