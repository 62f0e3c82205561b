import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createStandupBot } from '../src/bot.js';

// Monday 2 March 2026, 08:59 in Berlin (CET, UTC+1): a minute before the first reminder.
const MONDAY_0859 = '2026-03-02T07:59:00Z';

let platform: TestPlatform;
let clock: TestClock;
afterEach(() => platform?.close());

async function start(reminder?: string): Promise<void> {
  clock = new TestClock(MONDAY_0859);
  platform = await createTestPlatform({
    bot: (base) => createStandupBot({ ...base, clock }, reminder === undefined ? {} : { reminder }),
  });
}

/** Alice (the seed makes her owner of every board) turns the reminder on for `board`. */
async function turnOn(board: string): Promise<void> {
  const answer = await platform.person('alice').invoke('standup on', {}, { board });
  expect(answer.content).toBe('The standup reminder is on for this board, weekdays at 9:00.');
}

describe('the standup bot', () => {
  it('lets admins turn the reminder on, and tells a member which role it needs', async () => {
    await start();
    await platform.person('bob').join('general', 'member');
    const refused = await platform.person('bob').invoke('standup on');
    expect(refused.content).toBe('This needs the admin role on this board (you are a member).');

    await platform.person('carol').join('general', 'admin');
    const accepted = await platform.person('carol').invoke('standup on');
    expect(accepted.content).toBe('The standup reminder is on for this board, weekdays at 9:00.');
  });

  it('reminds the boards that asked for it at 9:00 Berlin time on weekdays, not on the weekend', async () => {
    await start('Standup! Write !standup.');
    await turnOn('general');
    await platform.settle();

    clock.advanceTo('2026-03-02T08:00:00Z');
    const reminder = await platform.bot.nextMessage();
    expect(reminder.content).toBe('Standup! Write !standup.');
    expect(reminder.board_id).toBe((await platform.board('general')).id);
    await platform.settle();
    // Friday's reminder, then nothing until Monday.
    for (const day of ['03', '04', '05', '06', '07', '08']) {
      clock.advanceTo(`2026-03-${day}T12:00:00Z`);
      await platform.settle();
    }
    expect(platform.bot.messages({ content: 'Standup! Write !standup.' })).toHaveLength(5);
    expect(platform.bot.messages({ board: 'random', content: /Standup/ })).toHaveLength(0);
  });

  it('asks three questions one message at a time and adds the answers to the summary, which the next reminder clears', async () => {
    await start();
    await turnOn('general');
    const dave = platform.person('dave');
    const asked = await dave.say('!standup');
    expect((await platform.bot.nextMessage({ replyTo: asked })).content).toBe(
      'What did you do since the last standup?',
    );
    const first = await dave.say('the login page');
    expect((await platform.bot.nextMessage({ replyTo: first })).content).toBe('What will you do next?');
    const second = await dave.say('the signup page');
    const blockers = 'Is anything blocking you? Answer no, or say what blocks you.';
    expect((await platform.bot.nextMessage({ replyTo: second })).content).toBe(blockers);
    // The blockers answer is checked: a bare yes is asked again, with the reason.
    const vague = await dave.say('yes');
    expect((await platform.bot.nextMessage({ replyTo: vague })).content).toBe(
      `Say what blocks you (or no).\n${blockers}`,
    );
    const third = await dave.say('none');
    expect((await platform.bot.nextMessage({ replyTo: third })).content).toMatch(
      /^Thanks .*, noted for this standup\.$/,
    );

    const summary = await platform.person('alice').invoke('standup summary');
    expect(summary.content).toMatch(/: did the login page; next the signup page; not blocked$/);

    await platform.settle();
    clock.advanceTo('2026-03-02T08:00:00Z');
    await platform.bot.nextMessage({ content: /^Standup time!/ });
    await platform.settle();
    const cleared = await platform.person('alice').invoke('standup summary');
    expect(cleared.content).toBe('No updates yet. Write !standup to give yours.');
  });

  it('takes !away as a text command whose reason is the rest of the line, and refuses it without one', async () => {
    await start();
    const dave = platform.person('dave');
    const away = await dave.say('!away at the dentsit, back at noon');
    const answer = await platform.bot.nextMessage({ replyTo: away });
    expect(answer.content).toMatch(/^Noted, .*: away for this standup \(at the dentsit, back at noon\)\.$/);
    const bare = await dave.say('!away');
    expect((await platform.bot.nextMessage({ replyTo: bare })).content).toBe(
      'Sorry, !away cannot run:\n- reason is required',
    );
    // Editable: the typo fixed, the answer is edited in place and the reason replaced, not added.
    await dave.edit(away, '!away at the dentist, back at noon');
    await platform.settle();
    const answers = platform.bot.messages({ replyTo: away });
    expect(answers.map((m) => [m.id, m.content])).toEqual([
      [answer.id, expect.stringMatching(/^Noted, .*: away for this standup \(at the dentist, back at noon\)\.$/)],
    ]);
    const summary = await platform.person('alice').invoke('standup summary');
    expect(summary.content).toMatch(/^[^\n]*: away \(at the dentist, back at noon\)$/);
  });
});
