import { botMessages } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { streamedText } from '../fixtures/restart-bot/src/streamed-text.js';
import { refused } from './support/bot-process.js';
import { eventually, repliesTo, storedPosition, streamParts } from './support/replies.js';
import { useScenario } from './support/scenario.js';

// docs/assistants.md, "A stream does not hold its board": after its first post a streamed answer
// holds neither its board's ordering slot nor a worker, so the board's next message is answered
// while the stream is open; the resume point still waits for the stream's event, so a kill -9 while
// it is open completes the same answer on restart, once, and the next message keeps its one answer.
// The bot is a real process; the emulator is real, over loopback.

const openScenario = useScenario();

describe('a stream after its first post', () => {
  it('lets its board answer the next message, holds the resume point, and completes once after kill -9', async () => {
    const s = await openScenario();
    const { platform } = s;
    const alice = platform.person('alice');
    const botUser = platform.bot.app.bot_user_id;
    const general = (await platform.board('general')).id;
    const random = (await platform.board('random')).id;
    const mark = async (board: string) => (await storedPosition(s))?.boards[board] ?? 0;

    // The model gives 1,000 characters, then nothing more until the process dies.
    const first = s.startBot({ STREAM_HOLD: '1000' });
    await first.started();
    const asked = await alice.say('stream 0');
    await first.waitFor((l) => l.msg === 'fixture stream holding' && l.to === asked.id);

    // The same board's next message is answered while the stream is open.
    const next = await alice.say('m while streaming');
    await eventually(s, async () => (await repliesTo(s, [next])).length === 1, 'the next message answered');
    // Another board moves the stored point; general's mark stays below the open stream's message.
    const elsewhere = await alice.say('m elsewhere', { board: 'random' });
    await eventually(s, async () => (await mark(random)) >= elsewhere.seq, "random's mark stored past its message");
    expect(await mark(general)).toBeLessThan(asked.seq);
    const nextHandled = first.lines.find((l) => l.msg === 'handled' && l.message_id === next.id);
    const stored = await storedPosition(s);
    if (stored?.eventId !== undefined && nextHandled !== undefined) {
      expect(Number(stored.eventId)).toBeLessThan(Number(nextHandled.event_id));
    }
    await first.kill();

    const second = s.startBot();
    await second.started();
    const complete = streamParts(streamedText(0));
    const answer = async () =>
      botMessages(await platform.messages('general'), botUser).filter(
        (m) => m.reply_to === asked.id && m.deleted_at === null,
      );
    await eventually(
      s,
      async () => (await answer()).map((m) => m.content).join('\u0000') === complete.join('\u0000'),
      'the open answer completed by the next start',
    );
    await second.waitFor((l) => l.msg === 'fixture streamed' && l.to === asked.id);
    expect(await second.stop()).toBe(0);

    // One answer to the stream, complete; one answer to the next message (a re-run replays its key).
    expect((await answer()).map((m) => m.content)).toEqual(complete);
    const replies = await repliesTo(s, [next]);
    expect(replies.filter((m) => m.deleted_at === null).map((m) => m.content)).toEqual(['echo m while streaming']);
    expect(refused([...first.lines, ...second.lines])).toEqual([]);
  }, 120_000);
});
