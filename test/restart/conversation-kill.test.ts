import type { Message } from '@boardbot/protocol';
import { botMessages } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { refused } from './support/bot-process.js';
import { repliesTo, waitForReplies } from './support/replies.js';
import { useScenario } from './support/scenario.js';

// docs/conversations.md, "Branches" and "Handled again": a conversation with an answer class and a
// branch (test/fixtures/trip-conversation) in a real bot process, its sessions in the default file
// store. A refused answer is asked again; the retry takes the branch; the process is killed with
// SIGKILL once it took the branch's answer and before it replied; the next process resumes there.

const openScenario = useScenario();

describe('a branched conversation killed with SIGKILL in the middle', () => {
  it('resumes in the restarted process: the lost reply, then the next answers, each once, no 422', async () => {
    const s = await openScenario();
    const first = s.startBot({ TRIP: '1', HOLD_ANSWER: 'Ritz' });
    await first.started();
    const alice = s.platform.person('alice');
    /** Alice says `text` and gets the bot's reply to it. */
    const reply = async (text: string): Promise<[Message, string | null]> => {
      const said = await alice.say(text);
      await waitForReplies(s, [said]);
      return [said, (await repliesTo(s, [said]))[0]?.content ?? null];
    };
    expect((await reply('!trip'))[1]).toBe('How many nights?');
    expect((await reply('banana'))[1]).toBe('nights must be an integer\nHow many nights?');
    expect((await reply('9'))[1]).toBe('A long stay: which hotel?');

    const held = await alice.say('Ritz');
    await first.waitFor((l) => l.msg === 'fixture trip answered' && l.to === held.id);
    await first.kill();
    expect(await repliesTo(s, [held])).toEqual([]);

    const second = s.startBot({ TRIP: '1' });
    await second.started();
    await waitForReplies(s, [held]);
    expect((await repliesTo(s, [held])).map((r) => r.content)).toEqual(['Which city?']);
    expect((await reply('Paris'))[1]).toBe('trip done: 9 nights in Paris at Ritz');
    expect(await second.stop()).toBe(0);

    const all = botMessages(await s.platform.messages('general'), s.platform.bot.app.bot_user_id);
    expect(all.map((m) => m.content)).toEqual([
      'How many nights?',
      'nights must be an integer\nHow many nights?',
      'A long stay: which hotel?',
      'Which city?',
      'trip done: 9 nights in Paris at Ritz',
    ]);
    expect(refused([...first.lines, ...second.lines])).toEqual([]);
  }, 120_000);
});
