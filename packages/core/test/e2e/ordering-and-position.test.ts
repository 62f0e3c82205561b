import { MemoryPositionStore, type MessageContext, OnMessage } from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

/** What each listener run saw: when it started and ended relative to the others of its board. */
const runs: { board: string; n: number; phase: 'start' | 'end' }[] = [];

class Slow {
  @OnMessage(/^n \d+$/)
  async record(ctx: MessageContext) {
    const n = Number(ctx.message.content?.slice(2));
    runs.push({ board: ctx.boardId, n, phase: 'start' });
    // Later messages take less time: without ordering they would overtake the earlier ones.
    await new Promise((r) => setTimeout(r, 30 - (n % 6) * 5));
    runs.push({ board: ctx.boardId, n, phase: 'end' });
  }
}

describe('ordering and the resume point against the emulator', () => {
  let platform: Platform;
  beforeAll(async () => {
    platform = await TestPlatform.start();
  });
  afterAll(() => platform.close());

  it('handles the events of one board one at a time, in order, and boards side by side (orderBy board)', async () => {
    runs.length = 0;
    const { bot } = platform.bot({ handlers: [Slow] });
    await bot.start();
    for (let n = 0; n < 12; n++) {
      await platform.post(platform.alice, platform.general, `n ${n}`);
      await platform.post(platform.alice, platform.random, `n ${n}`);
    }
    await until(() => runs.filter((r) => r.phase === 'end').length === 24, 'all 24 handled', { timeoutMs: 50_000 });
    await bot.stop();
    for (const board of [platform.general.id, platform.random.id]) {
      const mine = runs.filter((r) => r.board === board);
      // start 0, end 0, start 1, end 1...: never two at once, never out of order.
      expect(mine.map((r) => `${r.phase} ${r.n}`)).toEqual(
        Array.from({ length: 12 }, (_, n) => [`start ${n}`, `end ${n}`]).flat(),
      );
    }
    // The boards did overlap: some run of one board started while one of the other was running.
    const overlapped = runs.some((r, i) => {
      if (r.phase !== 'start') return false;
      const open = runs.slice(0, i).filter((x) => x.board !== r.board);
      return open.filter((x) => x.phase === 'start').length > open.filter((x) => x.phase === 'end').length;
    });
    expect(overlapped).toBe(true);
  });

  it('stores the live stream as the resume point before start() resolves, on a first start', async () => {
    // Regression: a bot killed in its first 200 ms had stored nothing, so the next one started from
    // the live stream and lost what arrived in between.
    const store = new MemoryPositionStore();
    const { bot, logs } = platform.bot({ handlers: [Slow], position: store, positionFlushMs: 60_000 });
    await bot.start();
    const key = { apiUrl: platform.apiUrl, appId: bot.app.id };
    expect((await store.load(key))?.eventId).toMatch(/^\d+$/);
    expect(logs.lines().some((l) => l.msg === 'resume point stored at the live stream')).toBe(true);
    await bot.stop();
  });

  it('warns at start that position: false keeps no resume point', async () => {
    const { bot, logs } = platform.bot({ handlers: [Slow], position: false });
    await bot.start();
    await bot.stop();
    const warning = logs.lines().find((l) => String(l.msg).startsWith('position: false'));
    expect(warning).toMatchObject({ level: 40 });
    expect(String(warning?.msg)).toContain('events that arrive while the bot is down are lost');
    expect(logs.lines().some((l) => l.msg === 'resume point stored at the live stream')).toBe(false);
  });
});
