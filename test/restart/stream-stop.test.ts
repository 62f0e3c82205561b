import { STREAM_TEXTS } from '@boardbot/core';
import { botMessages } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { streamedText } from '../fixtures/restart-bot/src/streamed-text.js';
import { eventually, streamParts } from './support/replies.js';
import { useScenario } from './support/scenario.js';

// docs/assistants.md, "Stopping mid-stream": stop() (SIGTERM) while an answer streams ends the
// answer at once with the interrupted marker, before the shutdown deadline (the process exits 0, not
// 124), and leaves its event above the resume point: the next start handles it again and completes
// the same answer. The bot is a real process; the emulator is real, over loopback.

const openScenario = useScenario();

// Where the fixture's model holds: past the first part, so the answer has two when it stops.
const HOLD = 4400;

describe('stop() during a stream', () => {
  it('marks the answer interrupted, and the next start completes the same answer', async () => {
    const s = await openScenario();
    const { platform } = s;
    const botUser = platform.bot.app.bot_user_id;
    const answer = async () =>
      botMessages(await platform.messages('general'), botUser).filter((m) => m.deleted_at === null);

    const first = s.startBot({ STREAM_HOLD: String(HOLD) });
    await first.started();
    const asked = await platform.person('alice').say('stream 0');
    await first.waitFor((l) => l.msg === 'fixture stream holding' && l.to === asked.id);
    // Stopped within its deadline: nothing was abandoned.
    expect(await first.stop()).toBe(0);

    const interrupted = streamParts(streamedText(0).slice(0, HOLD) + STREAM_TEXTS.interrupted);
    expect(interrupted).toHaveLength(2);
    const shown = await answer();
    expect(shown.map((m) => m.reply_to)).toEqual([asked.id, asked.id]);
    expect(shown.map((m) => m.content)).toEqual(interrupted);

    const second = s.startBot();
    await second.started();
    const complete = streamParts(streamedText(0));
    const done = async () => {
      const parts = await answer();
      return parts.length === complete.length && parts.every((m, i) => m.content === complete[i]);
    };
    await eventually(s, done, 'the interrupted answer completed', 60_000);
    await second.waitFor((l) => l.msg === 'fixture streamed' && l.to === asked.id);
    expect(await second.stop()).toBe(0);

    // The same messages, edited to the end: one answer, no second one.
    const final = await answer();
    expect(final.map((m) => m.id)).toEqual(shown.map((m) => m.id));
    expect(final.map((m) => m.content)).toEqual(complete);
  }, 120_000);
});
