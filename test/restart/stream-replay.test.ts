import { splitAnswer } from '@boardbot/core/internal';
import type { Message } from '@boardbot/protocol';
import { botMessages } from '@boardbot/test-support';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { streamedText } from '../fixtures/restart-bot/src/streamed-text.js';
import { buildFixtureBot, type LogLine, refused } from './support/bot-process.js';
import { eventually } from './support/replies.js';
import { type Scenario, scenario } from './support/scenario.js';

// docs/assistants.md, "Exactly once across a crash": a bot killed with SIGKILL mid-stream, its event
// handled again by the next process, gives one answer per stream, edited to completion: the first
// post is found again by its ordinal key, the later parts by their record and their named keys. The
// bot is a real process; the emulator is real, over loopback.

beforeAll(() => buildFixtureBot(), 120_000);

let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const STREAMS = 20;
const BOARDS = ['general', 'random', 'ops', 'lounge'];
// Content limit less the cursor's room, as the stream lays its parts out.
const LAYOUT_LIMIT = 3998;

const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low));

describe('streamed answers across kill -9', () => {
  it('give each of 20 streams its answer once and complete, the bot killed at a random moment of each', async () => {
    s = await scenario();
    const { platform } = s;
    for (const name of BOARDS.slice(2)) await platform.createBoard(name);
    const alice = platform.person('alice');
    const asked: { message: Message; board: string; n: number }[] = [];
    const lines: LogLine[] = [];

    for (let n = 0; n < STREAMS; n++) {
      const bot = s.startBot();
      await bot.started();
      const board = BOARDS[n % BOARDS.length] as string;
      asked.push({ message: await alice.say(`stream ${n}`, { board }), board, n });
      // Killed anywhere from before the handler starts to after it ends (a stream takes ~700 ms).
      await new Promise((resolve) => setTimeout(resolve, randomBetween(0, 1200)));
      await bot.kill();
      lines.push(...bot.lines);
    }

    const last = s.startBot();
    await last.started();
    const botUser = platform.bot.app.bot_user_id;
    const answerOf = async ({ message, board }: (typeof asked)[number]) =>
      botMessages(await platform.messages(board), botUser).filter(
        (m) => m.reply_to === message.id && m.deleted_at === null,
      );
    const done = async () => {
      for (const a of asked) {
        const expected = splitAnswer(streamedText(a.n), LAYOUT_LIMIT);
        const parts = (await answerOf(a)).map((m) => m.content);
        if (parts.length !== expected.length || parts.some((p, i) => p !== expected[i])) return false;
      }
      return true;
    };
    await eventually(s, done, 'every stream answered in full', 120_000);
    // What the last bot started, it finished: no stream left for it to edit further. It runs the
    // last stream again unless the bot before it handled it and stored its position past it.
    const lastAsked = asked[STREAMS - 1]?.message.id;
    const handled = lines.find((l) => l.msg === 'handled' && l.message_id === lastAsked);
    const resumedAt = last.lines.find((l) => l.msg === 'resuming after the stored position')?.last_event_id;
    const passed = handled !== undefined && resumedAt !== undefined && Number(resumedAt) >= Number(handled.event_id);
    if (!passed) await last.waitFor((l) => l.msg === 'fixture streamed' && l.to === lastAsked);
    expect(await last.stop()).toBe(0);
    lines.push(...last.lines);

    for (const a of asked) {
      const parts = await answerOf(a);
      // Once: exactly the parts of the text, no second answer, no part left behind.
      expect(parts.map((m) => m.content)).toEqual(splitAnswer(streamedText(a.n), LAYOUT_LIMIT));
    }
    const all = (await Promise.all(BOARDS.map((b) => platform.messages(b)))).flat();
    const leftovers = botMessages(all, botUser).filter((m) => m.deleted_at === null);
    expect(leftovers).toHaveLength(
      asked.reduce((sum, a) => sum + splitAnswer(streamedText(a.n), LAYOUT_LIMIT).length, 0),
    );
    expect(refused(lines)).toEqual([]);
  }, 300_000);
});
