import type { Message } from '@boardbot/protocol';
import { botMessages } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { type LogLine, refused } from './support/bot-process.js';
import { eventually } from './support/replies.js';
import { type Scenario, useScenario } from './support/scenario.js';

// docs/commands-and-options.md, "Editable text commands": the link from a message to its answers is
// in the session store (the fixture's is a file under its state directory), so a bot killed with
// SIGKILL between a message and its edit edits the answer the killed one posted; and a crash after
// the edit's write, before its position was stored, runs the edit again without doubling anything.

const openScenario = useScenario();

describe('editable answers across kill -9', () => {
  it('edit in place, post more, delete fewer, post again for an embed and delete with the message, each edit made while the bot was dead', async () => {
    const s = await openScenario();
    const { platform } = s;
    const alice = platform.person('alice');
    const botUser = platform.bot.app.bot_user_id;
    const lines: LogLine[] = [];
    const answersTo = async (message: Message) =>
      botMessages(await platform.messages(), botUser).filter((m) => m.reply_to === message.id && m.deleted_at === null);
    /** Waits until the answers to `message` read `contents`, then kills the bot. */
    const answered = async (message: Message, contents: string[]) => {
      await eventually(
        s as Scenario,
        async () => JSON.stringify((await answersTo(message)).map((m) => m.content)) === JSON.stringify(contents),
        `answers ${JSON.stringify(contents)}`,
      );
      return answersTo(message);
    };
    let bot = s.startBot();
    await bot.started();
    const message = await alice.say('!dice 2O');
    const [refusal] = await answered(message, ['Sorry, !dice cannot run:\n- sides: expected an integer']);
    /** Kills the bot, lets alice change the message while it is dead, starts the next one. */
    const whileDead = async (change: () => Promise<unknown>) => {
      await bot.kill();
      lines.push(...bot.lines);
      await change();
      bot = (s as Scenario).startBot();
      await bot.started();
    };

    await whileDead(() => alice.edit(message, '!dice 20'));
    const [rolled] = await answered(message, ['dice d20']);
    expect(rolled?.id).toBe(refusal?.id);

    await whileDead(() => alice.edit(message, '!dice 20 twice'));
    const two = await answered(message, ['dice d20', 'and another d20']);
    expect(two[0]?.id).toBe(refusal?.id);

    await whileDead(() => alice.edit(message, '!dice 12 red'));
    const [red] = await answered(message, ['dice d12']);
    // A new embed cannot be an edit: the answer was posted again, the earlier two deleted.
    expect(red?.id).not.toBe(refusal?.id);
    expect(red?.embeds).toMatchObject([{ title: 'red' }]);

    await whileDead(() => alice.delete(message));
    await answered(message, []);
    expect(await bot.stop()).toBe(0);
    lines.push(...bot.lines);
    // Nothing else the bot ever posted stands.
    const standing = botMessages(await platform.messages(), botUser).filter((m) => m.deleted_at === null);
    expect(standing).toEqual([]);
    expect(refused(lines)).toEqual([]);
  }, 120_000);

  it('a crash after the edit was written, before its position was stored: the edit runs again, nothing doubles', async () => {
    const s = await openScenario();
    const { platform } = s;
    const alice = platform.person('alice');
    const botUser = platform.bot.app.bot_user_id;
    let bot = s.startBot({ HOLD_AFTER_WRITE: '1' });
    await bot.started();
    const message = await alice.say('!dice 6 twice');
    await bot.waitFor((l) => l.msg === 'fixture wrote' && l.content === 'd6 twice');
    const first = botMessages(await platform.messages(), botUser);

    // The edit's run writes both answers, then holds: killed before its event's position is stored.
    await alice.edit(message, '!dice 8 hold');
    await bot.waitFor((l) => l.msg === 'fixture wrote' && l.content === 'd8 hold');
    const lines = [...bot.lines];
    await bot.kill();
    // Killed before the run ended: the extra answer is still there, and still linked.
    const afterEdit = botMessages(await platform.messages(), botUser).filter((m) => m.deleted_at === null);
    expect(afterEdit.map((m) => [m.id, m.content])).toEqual([
      [first[0]?.id, 'dice d8'],
      [first[1]?.id, 'and another d6'],
    ]);

    // The next process is given the edit again (it was not stored as handled) and runs it again.
    bot = s.startBot();
    await bot.started();
    await bot.waitFor((l) => l.msg === 'fixture wrote' && l.content === 'd8 hold');
    expect(await bot.stop()).toBe(0);
    lines.push(...bot.lines);
    const all = botMessages(await platform.messages(), botUser);
    expect(all.filter((m) => m.deleted_at === null).map((m) => [m.id, m.content])).toEqual([[first[0]?.id, 'dice d8']]);
    // Two answers ever posted (the first run's), none since: the replay edited, it did not post.
    expect(all.map((m) => m.id)).toEqual(first.map((m) => m.id));
    expect(refused(lines)).toEqual([]);
  }, 120_000);
});
