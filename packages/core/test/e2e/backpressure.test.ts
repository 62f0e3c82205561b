import { type MessageContext, OnMessage } from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPlatform } from './support/platform.js';

const FLOOD = 20_000;
const HIGH = 200;
/**
 * Boards flooded at once. One board holds at most a tenth of the bound while the intake is contended
 * (its later messages are set aside, to be read back: docs/production.md, "Backpressure"), so only a
 * flood on more than ten boards fills the bound and pauses the gateway.
 */
const BOARDS = 12;
/**
 * The bound on what the bot holds: the high-water mark, plus the events of the network chunk the
 * gateway was reading when the mark was reached (a chunk of at most 64 KiB holds fewer than 100 of
 * these events). Each held event keeps its message, a queue entry and its promise: a few KiB, so the
 * heap the intake holds stays under about 2 MiB, where today's unbounded queue held all 20,000.
 */
const BOUND = HIGH + 300;
// About 20 MiB of events in all, more than the kernel's socket buffers on loopback hold: the pause
// outlasts what the platform buffers for the stream.
const PAD = 'x'.repeat(400);

/** What the handlers saw, and the gate that holds them until the whole flood was posted. */
const seen: { board: string; seq: number; id: string }[] = [];
let open: () => void = () => {};
let peak = 0;
let pending: () => number = () => 0;
const posted = new Promise<void>((resolve) => {
  open = resolve;
});

class Slow {
  @OnMessage(/^flood \d+ /)
  async record(ctx: MessageContext) {
    seen.push({ board: ctx.boardId, seq: ctx.message.seq, id: ctx.message.id });
    peak = Math.max(peak, pending());
    // Slow handlers, as slow as it takes: none finishes before the flood is posted.
    await posted;
  }
}

describe('backpressure: a flood against slow handlers', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await TestPlatform.start({ limits: { streamBufferBytes: 64 * 1024 } });
  });
  afterAll(() => platform.close());

  it(`holds at most ${BOUND} events during ${FLOOD} posted on ${BOARDS} boards, pauses and resumes the gateway, and loses nothing`, async () => {
    const boards = [platform.general, platform.random];
    const app = (await platform.control.apps()).find((a) => a.name === 'dev-bot');
    for (let i = boards.length; i < BOARDS; i++) {
      const board = await platform.control.createBoard({ name: `flood-${i}` });
      await platform.control.install(app?.id ?? '', board.id);
      await platform.control.setMember(board.id, platform.alice.id);
      boards.push(board);
    }
    const { bot, logs } = platform.bot({ handlers: [Slow], maxPendingEvents: HIGH, handlerTimeoutMs: 3_600_000 });
    pending = () => bot.pending;
    await bot.start();
    const ids = new Map<string, number[]>(boards.map((b) => [b.id, []]));
    let next = 0;
    const poster = async () => {
      while (next < FLOOD) {
        const n = next++;
        const board = boards[n % BOARDS] as (typeof boards)[number];
        const message = await platform.post(platform.alice, board, `flood ${n} ${PAD}`);
        ids.get(board.id)?.push(message.seq);
        peak = Math.max(peak, bot.pending);
      }
    };
    await Promise.all(Array.from({ length: 16 }, poster));
    peak = Math.max(peak, bot.pending);
    const full = 'intake full: the gateway stops reading until handlers catch up';
    await until(() => logs.lines().some((l) => l.msg === full), 'the gateway paused', { timeoutMs: 60_000 });
    open();
    await until(() => seen.length >= FLOOD, `all ${FLOOD} handled`, { timeoutMs: 600_000 });
    await bot.stop();
    // The pause outlasted the platform's buffer for the stream (64 KiB here): it dropped the stream,
    // and the client resumed with Last-Event-ID; the replay is what the checks below count.
    const gateway = logs.lines().filter((l) => l.component === 'gateway');
    expect(gateway.some((l) => l.code === 'BOARDBOT_GATEWAY_NETWORK')).toBe(true);
    expect(gateway.filter((l) => l.msg === 'gateway stream open').length).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(BOUND);
    expect(logs.lines().some((l) => l.msg === 'intake drained: the gateway reads on')).toBe(true);
    // Exactly once, and in order on each board.
    expect(seen).toHaveLength(FLOOD);
    expect(new Set(seen.map((s) => s.id)).size).toBe(FLOOD);
    for (const board of boards) {
      const handled = seen.filter((s) => s.board === board.id).map((s) => s.seq);
      expect(handled).toEqual([...(ids.get(board.id) ?? [])].sort((a, b) => a - b));
    }
  }, 900_000);
});
