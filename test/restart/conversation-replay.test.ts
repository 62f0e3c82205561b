import { botMessages } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { refused } from './support/bot-process.js';
import { repliesTo, waitForReplies } from './support/replies.js';
import { type Scenario, useScenario } from './support/scenario.js';

// docs/conversations.md, "Handled again": a bot killed with SIGKILL after a conversation took an
// answer (its session update applied) and before it replied handles that message again once it is
// restarted, and sends the reply then: the next question, or done's reply. The bot is a real
// process; the emulator is real, over loopback; the sessions are in the default file store.

const openScenario = useScenario();

/**
 * Alice starts the survey and gives `answers`; the fixture holds after taking the last one (it
 * starts with `survey hold`), and the process is killed with SIGKILL there. The next process
 * handles that answer again.
 */
async function killedAfterTakingAnswer(s: Scenario, answers: string[]) {
  const first = s.startBot({ HOLD_AFTER_WRITE: '1' });
  await first.started();
  const alice = s.platform.person('alice');
  const said = [await alice.say('!survey')];
  for (const answer of answers) {
    said.push(await alice.say(answer));
    if (!answer.startsWith('survey hold')) await waitForReplies(s, said);
  }
  const held = said.at(-1);
  if (held === undefined) throw new Error('no answer to hold');
  await first.waitFor((l) => l.msg === 'fixture conversation updated' && l.to === held.id);
  await first.kill();
  const lost = await repliesTo(s, [held]);

  const second = s.startBot({});
  await second.started();
  await waitForReplies(s, [held]);
  expect(await second.stop()).toBe(0);
  return {
    lost: lost.map((r) => r.content),
    replies: (await repliesTo(s, [held])).map((r) => r.content),
    all: botMessages(await s.platform.messages('general'), s.platform.bot.app.bot_user_id).map((m) => m.content),
    refusals: refused([...first.lines, ...second.lines]),
  };
}

describe('a conversation killed with SIGKILL after taking an answer and before its reply', () => {
  it('asks the next question once restarted, once, no 422', async () => {
    const s = await openScenario();
    const seen = await killedAfterTakingAnswer(s, ['survey hold red']);
    expect(seen.lost).toEqual([]);
    expect(seen.replies).toEqual(['Animal?']);
    expect(seen.all).toEqual(['Colour?', 'Animal?']);
    expect(seen.refusals).toEqual([]);
  }, 120_000);

  it("sends done's reply from the answers taken then once restarted, once, no 422", async () => {
    const s = await openScenario();
    const seen = await killedAfterTakingAnswer(s, ['survey red', 'survey hold cat']);
    expect(seen.lost).toEqual([]);
    expect(seen.replies).toEqual(['survey done: survey red / survey hold cat']);
    expect(seen.all).toEqual(['Colour?', 'Animal?', 'survey done: survey red / survey hold cat']);
    expect(seen.refusals).toEqual([]);
  }, 120_000);
});
