import { botMessages, type Posted, unanswered, until } from '@boardbot/test-support';
import type { Person } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';
import { useScenario } from './support/scenario.js';

// CONTRACT (docs/production.md): delivery at least once, effects exactly once, order per board.
// The bot is a real process killed with SIGKILL at random moments; the emulator is real, over loopback.

const openScenario = useScenario();

const KILLS = 22;
const MESSAGES = 2000;
const COMMANDS = 500;
const BOARDS = ['general', 'random', 'ops', 'lounge'];

const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low));

describe('a bot killed with SIGKILL at random moments', () => {
  it('answers every message and command exactly once, in order per board, across 22 kills', async () => {
    const s = await openScenario();
    const { platform } = s;
    for (const name of BOARDS.slice(2)) await platform.createBoard(name);
    const people: Person[] = [platform.person('alice'), platform.person('bob')];
    const posted = new Map<string, Posted>(BOARDS.map((b) => [b, { messages: [], interactions: [] }]));

    // Kills: start, let it work for a random moment, SIGKILL; again, while people keep posting.
    let kills = 0;
    const killWaiters: (() => void)[] = [];
    let registered: () => void = () => {};
    const commandsRegistered = new Promise<void>((resolve) => {
      registered = resolve;
    });
    const killer = (async () => {
      for (let k = 0; k < KILLS; k++) {
        const bot = s.startBot();
        await bot.started();
        registered();
        await new Promise((r) => setTimeout(r, randomBetween(20, 600)));
        await bot.kill();
        kills++;
        for (const wake of killWaiters.splice(0)) wake();
      }
    })();
    const afterKill = (n: number) =>
      kills >= n
        ? Promise.resolve()
        : new Promise<void>((resolve) => killWaiters.push(() => afterKill(n).then(resolve)));

    // People post in KILLS batches, one batch per bot life, so some arrive while it runs and some while it is down.
    const poster = (async () => {
      // The first bot registers /ask; people can only invoke it after that.
      await commandsRegistered;
      for (let batch = 0; batch < KILLS; batch++) {
        await Promise.all(
          BOARDS.map(async (board, b) => {
            const mine = posted.get(board) as Posted;
            const count = (i: number, total: number) =>
              Math.floor((total * (batch * BOARDS.length + b + i)) / (KILLS * BOARDS.length)) -
              Math.floor((total * (batch * BOARDS.length + b + i - 1)) / (KILLS * BOARDS.length));
            const messages = count(1, MESSAGES);
            const commands = count(1, COMMANDS);
            for (let i = 0; i < Math.max(messages, commands); i++) {
              const person = people[i % people.length] as Person;
              if (i < messages) {
                mine.messages.push(await person.say(`m ${board}-${mine.messages.length}`, { board }));
              }
              if (i < commands) {
                const n = mine.interactions.length;
                mine.interactions.push((await person.start('ask', { n }, { board })).id);
              }
            }
          }),
        );
        await afterKill(batch + 1);
      }
    })();
    await Promise.all([killer, poster]);
    expect(kills).toBe(KILLS);

    const last = s.startBot();
    await last.started();
    const botUser = platform.bot.app.bot_user_id;
    const total = (p: Posted) => p.messages.length + p.interactions.length;
    const missing = () => unanswered(posted, (board) => platform.messages(board), botUser);
    await until(async () => (await missing()).length === 0, 'every message and command was answered', {
      timeoutMs: 120_000,
      intervalMs: 250,
      report: async () => `unanswered: ${(await missing()).slice(0, 10).join(', ')}\n${s?.report()}`,
    });
    await last.stop();

    let answered = 0;
    for (const board of BOARDS) {
      const mine = posted.get(board) as Posted;
      const mineByBot = botMessages(await platform.messages(board), botUser);
      const replies = mineByBot.filter((m) => m.reply_to !== null);
      const answers = mineByBot.filter((m) => m.interaction !== null);
      // Nothing twice, nothing else.
      expect(mineByBot).toHaveLength(total(mine));
      // Each message has exactly one reply, with the right text, in the order the messages were written.
      const seqOf = new Map(mine.messages.map((m) => [m.id, m.seq]));
      expect(replies.map((r) => r.reply_to)).toEqual(mine.messages.map((m) => m.id));
      expect(replies.map((r) => r.content)).toEqual(mine.messages.map((m) => `echo ${m.content}`));
      expect(replies.every((r) => seqOf.has(r.reply_to as string))).toBe(true);
      // Each command has exactly one answer, in the order it was invoked.
      expect(answers.map((a) => a.interaction?.id)).toEqual(mine.interactions);
      expect(answers.map((a) => a.content)).toEqual(mine.interactions.map((_, n) => `answer ${n}`));
      answered += mineByBot.length;
    }
    expect(answered).toBe(MESSAGES + COMMANDS);
  }, 300_000);
});
