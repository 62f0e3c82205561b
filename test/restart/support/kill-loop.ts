import { botMessages, type Posted, unanswered, until } from '@boardbot/test-support';
import type { Person } from '@boardbot/testing';
import { expect } from 'vitest';
import type { Scenario } from './scenario.js';

/** How hard a kill loop runs. */
export interface KillLoopOptions {
  /** SIGKILLs of the bot, each after a random moment of work. */
  kills: number;
  /** Messages posted (`m <board>-<n>`), spread over the kills' lives and the boards. */
  messages: number;
  /** `/ask` commands invoked, spread the same way. */
  commands: number;
  /** The boards, `general` and `random` first (the platform has those). */
  boards: readonly string[];
}

const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low));

/**
 * Runs the restart fixture bot and kills it with SIGKILL `kills` times at random moments while people
 * post messages and commands, some while it runs and some while it is down; then starts it once more
 * and checks, per board, that every message and command was answered exactly once, in order.
 * CONTRACT (docs/production.md): delivery at least once, effects exactly once, order per board.
 *
 * @param s - the scenario (its `startBot` passes `extra` to every start)
 * @param options - kills, volumes and boards
 * @param extra - more environment for the bot (where its state lives)
 */
export async function killLoop(s: Scenario, options: KillLoopOptions, extra: Record<string, string> = {}) {
  const { platform } = s;
  const { kills: KILLS, messages: MESSAGES, commands: COMMANDS, boards: BOARDS } = options;
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
      const bot = s.startBot(extra);
      await bot.started();
      registered();
      await new Promise((r) => setTimeout(r, randomBetween(20, 600)));
      await bot.kill();
      kills++;
      for (const wake of killWaiters.splice(0)) wake();
    }
  })();
  const afterKill = (n: number) =>
    kills >= n ? Promise.resolve() : new Promise<void>((resolve) => killWaiters.push(() => afterKill(n).then(resolve)));

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

  const last = s.startBot(extra);
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
}
