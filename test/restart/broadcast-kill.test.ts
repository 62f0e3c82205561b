import type { Board } from '@boardbot/protocol';
import { type CountingProxy, startCountingProxy } from '@boardbot/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { BotProcess } from './support/bot-process.js';
import { useScenario } from './support/scenario.js';

// docs/broadcasts.md: a broadcast is resumable after a crash with each board reached once. The bot is
// a real process (test/fixtures/restart-bot, BROADCAST=<id>) killed with SIGKILL once it said it had
// reached half of the boards; the emulator is real, at its default rate limit, behind a proxy that
// counts every answer's status.

const openScenario = useScenario();
const BOARDS = 300;
let proxy: CountingProxy | undefined;
const bots: BotProcess[] = [];
afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.kill();
  await proxy?.close();
  proxy = undefined;
});

describe('a broadcast whose bot is killed with SIGKILL halfway', () => {
  it('reaches each of 300 boards exactly once once started again, with no 429 on the wire', async () => {
    const s = await openScenario({ rateLimit: { requests: 50 } });
    const boards: Board[] = [];
    for (let i = 0; i < BOARDS; i++) boards.push(await s.platform.createBoard(`cast-${i}`));
    proxy = await startCountingProxy(s.platform.urls.apiUrl);
    const env = { token: s.platform.token, apiUrl: proxy.apiUrl, stateDir: s.stateDir };
    const start = () => {
      const bot = new BotProcess({ ...env, extra: { BROADCAST: 'launch' } });
      bots.push(bot);
      return bot;
    };
    const content = 'broadcast launch';
    const copies = async () =>
      Promise.all(
        boards.map(async (b) => (await s.platform.control.messages(b.id)).filter((m) => m.content === content).length),
      );

    const first = start();
    await first.waitFor((l) => l.msg === 'fixture broadcast progress' && (l.done as number) >= BOARDS / 2);
    await first.kill();
    const reached = (await copies()).filter((n) => n > 0).length;
    // Killed halfway: some boards have it, others not yet.
    expect(reached).toBeGreaterThanOrEqual(BOARDS / 2);
    expect(reached).toBeLessThan(BOARDS);

    const second = start();
    const ended = await second.waitFor((l) => l.msg === 'fixture broadcast ended', 120_000);
    expect(ended).toMatchObject({ status: 'done', total: BOARDS, done: BOARDS, sent: BOARDS, failed: 0 });
    // It resumed from its record: it sent only what the first process had not recorded.
    expect(ended.sentNow as number).toBeLessThanOrEqual(BOARDS - reached + 1);
    expect(second.lines.some((l) => l.msg === 'broadcast resumed')).toBe(true);
    expect(await copies()).toEqual(boards.map(() => 1));
    expect(proxy.limited).toEqual([]);
  }, 180_000);
});

describe('one broadcast id run by two processes at once', () => {
  it('reaches each board exactly once, both calls reporting it done', async () => {
    const s = await openScenario({ rateLimit: { requests: 50 } });
    const boards: Board[] = [];
    for (let i = 0; i < 100; i++) boards.push(await s.platform.createBoard(`cast-${i}`));
    // Two processes on one disk share the file session store, where the broadcast's record is.
    const env = { token: s.platform.token, apiUrl: s.platform.urls.apiUrl, stateDir: s.stateDir };
    const pair = [0, 1].map(() => new BotProcess({ ...env, extra: { BROADCAST: 'twice' } }));
    bots.push(...pair);
    const ended = await Promise.all(
      pair.map((bot) => bot.waitFor((l) => l.msg === 'fixture broadcast ended', 120_000)),
    );
    for (const report of ended) {
      expect(report).toMatchObject({ status: 'done', total: 100, done: 100, sent: 100, failed: 0 });
    }
    // They ran side by side: each moved the shared record forward (a board the other had begun is
    // sent again under the same key, and the platform replays it).
    const moves = pair.map((bot) => bot.lines.filter((l) => l.msg === 'fixture broadcast progress').length);
    expect(moves.every((n) => n > 0 && n < 100)).toBe(true);
    const copies = await Promise.all(
      boards.map(async (b) => (await s.platform.control.messages(b.id)).filter((m) => m.content === 'broadcast twice')),
    );
    expect(copies.map((c) => c.length)).toEqual(boards.map(() => 1));
  }, 180_000);
});
