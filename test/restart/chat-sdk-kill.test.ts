import { fileURLToPath } from 'node:url';
import type { Message } from '@boardbot/protocol';
import {
  buildProjects,
  type JsonLogLine,
  LoggingProcess,
  type RedisServer,
  startRedisServer,
  until,
} from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/chat-sdk.md, "Exactly once": a Chat SDK bot on the board adapter and Chat SDK's Redis state
// adapter, killed with SIGKILL at random moments while people mention it, answers each mention once:
// its resume point and its message index are in Redis, each post is keyed by the event it answers,
// and the thread locks a dead process held are released when the next one starts. The bot is a real
// process, Redis a real redis-server on a free port, the emulator real, over loopback.

const main = fileURLToPath(new URL('../fixtures/chat-bot/dist/main.js', import.meta.url));
const KILLS = 12;
const MENTIONS_PER_LIFE = 8;
const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low));

let emulator: SeededEmulator;
let redis: RedisServer;
const lines: JsonLogLine[] = [];

beforeAll(async () => {
  await buildProjects('test/fixtures/chat-bot');
  emulator = await startSeededEmulator({ rateLimit: { requests: 1_000_000 } });
  redis = await startRedisServer();
}, 180_000);

afterAll(async () => {
  await emulator?.close();
  await redis?.close();
});

const startBot = () =>
  new LoggingProcess({
    script: main,
    name: 'the Chat SDK bot',
    env: { BOARDBOT_TOKEN: emulator.token, BOARDBOT_API_URL: emulator.apiUrl, REDIS_URL: redis.url },
    onLine: (line) => lines.push(line),
  });

/** What the bot should have answered to `m`. */
const expected = (m: Message) =>
  m.content?.includes('stream') ? `streamed answer to ${m.content}` : `answer to ${m.content}`;

describe('a Chat SDK bot on Redis state, killed with SIGKILL at random moments', () => {
  it('answers each mention once, streams edited to completion, across 12 kills', async () => {
    const { general, random, alice, bob } = emulator.seed;
    const boards = [general.id, random.id];
    const mentions: Message[] = [];
    for (let life = 0; life < KILLS; life++) {
      const bot = startBot();
      await bot.started();
      // People mention it while it runs; some of each batch arrive after the kill, while it is down.
      const posting = (async () => {
        for (let i = 0; i < MENTIONS_PER_LIFE; i++) {
          const n = mentions.length;
          const content = `@dev-bot ${n % 3 === 0 ? 'stream' : 'say'} ${n}`;
          mentions.push(
            await emulator.control.postMessage(boards[n % 2] as string, {
              user_id: (n % 2 === 0 ? alice : bob).id,
              content,
            }),
          );
          await new Promise((resolve) => setTimeout(resolve, randomBetween(0, 60)));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, randomBetween(30, 500)));
      await bot.kill();
      await posting;
    }

    const last = startBot();
    await last.started();
    const answersOf = async () => {
      const byBot = (await Promise.all(boards.map((b) => emulator.allMessages(b))))
        .flat()
        .filter((m) => m.author === emulator.seed.devBot.bot_user_id);
      return new Map(mentions.map((m) => [m.id, byBot.filter((a) => a.reply_to === m.id)]));
    };
    const finished = async () =>
      [...(await answersOf()).entries()].every(([id, answers]) => {
        const m = mentions.find((x) => x.id === id) as Message;
        return answers.length >= 1 && answers.every((a) => a.content === expected(m));
      });
    await until(finished, 'every mention was answered, streams to the end', {
      timeoutMs: 60_000,
      intervalMs: 100,
      report: async () =>
        `${[...(await answersOf()).entries()]
          .filter(([, a]) => a.length !== 1)
          .map(([id, a]) => `${id}: ${a.length} answers`)
          .join('\n')}\n${last.report()}\nwarnings of every life:\n${lines
          .filter((l) => Number(l.level) >= 40)
          .map((l) => JSON.stringify(l))
          .join('\n')}`,
    });
    expect(await last.stop()).toBe(0);

    const answers = await answersOf();
    expect(mentions).toHaveLength(KILLS * MENTIONS_PER_LIFE);
    for (const m of mentions) {
      expect(
        answers.get(m.id)?.map((a) => a.content),
        m.content ?? '',
      ).toEqual([expected(m)]);
    }
    // Nothing else from the bot: no answer twice, no stray placeholder.
    const all = (await Promise.all(boards.map((b) => emulator.allMessages(b)))).flat();
    expect(all.filter((m) => m.author === emulator.seed.devBot.bot_user_id)).toHaveLength(mentions.length);
    expect(lines.filter((l) => JSON.stringify(l).includes('idempotency_key_reused'))).toEqual([]);
  }, 300_000);
});
