import type { Message } from '@boardbot/protocol';
import { botMessages } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { streamedText } from '../fixtures/restart-bot/src/streamed-text.js';
import { type LogLine, refused } from './support/bot-process.js';
import { eventually, streamParts } from './support/replies.js';
import { useScenario } from './support/scenario.js';

// docs/assistants.md, "Exactly once across a crash": a bot killed with SIGKILL mid-stream, its event
// handled again by the next process, gives one answer per stream, edited to completion: the first
// post is found again by its ordinal key, the later parts by their record and their named keys. The
// bot is a real process; the emulator is real, over loopback.

const openScenario = useScenario();

const STREAMS = 20;
const BOARDS = ['general', 'random', 'ops', 'lounge'];

const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low));

describe('streamed answers across kill -9', () => {
  it('give each of 20 streams its answer once and complete, the bot killed at a random moment of each', async () => {
    const s = await openScenario();
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
        const expected = streamParts(streamedText(a.n));
        const parts = (await answerOf(a)).map((m) => m.content);
        if (parts.length !== expected.length || parts.some((p, i) => p !== expected[i])) return false;
      }
      return true;
    };
    await eventually(s, done, 'every stream answered in full', 120_000);
    // What the last bot started, it finished before it is stopped: one more stream on each board runs
    // after whatever the last bot runs again of that board (a board's runs go one after the other).
    // Which streams it runs again depends on the resume point and the boards' marks its predecessor
    // stored, so the test waits for what comes after them, not for them.
    for (const [i, board] of BOARDS.entries()) {
      const n = STREAMS + i;
      const after = { message: await alice.say(`stream ${n}`, { board }), board, n };
      asked.push(after);
      await last.waitFor((l) => l.msg === 'fixture streamed' && l.to === after.message.id);
    }
    expect(await last.stop()).toBe(0);
    lines.push(...last.lines);

    for (const a of asked) {
      const parts = await answerOf(a);
      // Once: exactly the parts of the text, no second answer, no part left behind.
      expect(parts.map((m) => m.content)).toEqual(streamParts(streamedText(a.n)));
    }
    const all = (await Promise.all(BOARDS.map((b) => platform.messages(b)))).flat();
    const leftovers = botMessages(all, botUser).filter((m) => m.deleted_at === null);
    expect(leftovers).toHaveLength(asked.reduce((sum, a) => sum + streamParts(streamedText(a.n)).length, 0));
    expect(refused(lines)).toEqual([]);
  }, 300_000);
});
