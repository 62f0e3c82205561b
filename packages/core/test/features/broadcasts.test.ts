import {
  type BroadcastProgress,
  Command,
  type CommandContext,
  MemorySessionStore,
  type MessageContext,
  OnMessage,
} from '@boardbot/core';
import { BroadcastRecord, fingerprintOf } from '@boardbot/core/internal';
import type { Board } from '@boardbot/protocol';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { anotherInstance } from './support.js';

// docs/broadcasts.md: bot.broadcast through the runtime on the emulator (in process, real HTTP).
// Killed with SIGKILL halfway and started again: test/restart/broadcast-kill.test.ts.

/** Where the broadcast stood when the listener's and the command's answers were posted. */
let answeredAt: number | undefined;
let commandAnsweredAt: number | undefined;
let lastDone = 0;

@Command({ name: 'status', description: 'Says it is up' })
class Status {
  run(_ctx: CommandContext) {
    return 'up';
  }
}

class Pong {
  @OnMessage('ping')
  async pong(ctx: MessageContext) {
    await ctx.reply('pong');
    answeredAt ??= lastDone;
  }
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

async function open(options: { boards: number; requests?: number; keyTtlMs?: number; health?: boolean }) {
  const sessions = new MemorySessionStore();
  platform = await createTestPlatform({
    handlers: [Pong, Status],
    sessions,
    ...(options.health && { health: { port: 0 } }),
    emulator: {
      rateLimit: { requests: options.requests ?? 1_000_000 },
      ...(options.keyTtlMs !== undefined && { limits: { idempotencyTtlMs: options.keyTtlMs } }),
    },
    timeoutMs: 30_000,
  });
  const boards: Board[] = [];
  for (let i = 0; i < options.boards; i++) boards.push(await platform.createBoard(`cast-${i}`));
  return { platform, bot: platform.bot.runtime, boards, sessions };
}

/** How many messages with `content` each board shows, by board id. */
async function copies(p: TestPlatform, boards: readonly Board[], content: string): Promise<number[]> {
  const counts = [];
  for (const board of boards) {
    counts.push((await p.control.messages(board.id)).filter((m) => m.content === content).length);
  }
  return counts;
}

describe('bot.broadcast', () => {
  it('sends each board the message once, reports progress after each board, and a second call sends nothing', async () => {
    const { platform: p, bot, boards } = await open({ boards: 12 });
    const seen: BroadcastProgress[] = [];
    const ids = boards.map((b) => b.id);
    const report = await bot.broadcast(ids, { content: 'hello all' }, { id: 'hello', onProgress: (s) => seen.push(s) });
    expect(report).toMatchObject({ status: 'done', total: 12, done: 12, sent: 12, sentNow: 12, failed: 0 });
    expect(seen.map((s) => s.done)).toEqual(ids.map((_, i) => i + 1));
    expect(seen.at(-1)).toEqual({ id: 'hello', total: 12, done: 12, sent: 12, failed: 0 });
    expect(await copies(p, boards, 'hello all')).toEqual(ids.map(() => 1));
    // A line when it starts, at each tenth of the boards, and when it ends.
    const said = p.logs.lines.filter((l) => l.broadcast === 'hello').map((l) => [l.msg, l.done]);
    expect(said).toEqual([
      ['broadcast started', 0],
      ...[2, 3, 4, 5, 6, 8, 9, 10, 11, 12].map((done) => ['broadcast progress', done]),
      ['broadcast done', 12],
    ]);

    const again = await bot.broadcast(ids, { content: 'hello all' }, { id: 'hello' });
    expect(again).toMatchObject({ status: 'done', sent: 12, sentNow: 0 });
    expect(await copies(p, boards, 'hello all')).toEqual(ids.map(() => 1));
    await expect(bot.broadcast(ids, { content: 'hello, all' }, { id: 'hello' })).rejects.toMatchObject({
      code: 'BOARDBOT_BROADCAST_CHANGED',
    });
  });

  it('stops when cancelled, and a later call with the same id resumes: each board once', async () => {
    const { platform: p, bot, boards } = await open({ boards: 10 });
    const controller = new AbortController();
    const stop = (s: BroadcastProgress) => {
      if (s.done === 4) controller.abort();
    };
    const target = (b: Board) => b.name.startsWith('cast-');
    const first = await bot.broadcast(
      target,
      { content: 'news' },
      { id: 'news', signal: controller.signal, onProgress: stop },
    );
    expect(first).toMatchObject({ status: 'cancelled', total: 10, done: 4, sentNow: 4 });
    const afterCancel = await copies(p, boards, 'news');
    expect(afterCancel.reduce((a, b) => a + b)).toBe(4);

    const resumed = await bot.broadcast(target, { content: 'news' }, { id: 'news' });
    expect(resumed).toMatchObject({ status: 'done', total: 10, done: 10, sent: 10, sentNow: 6 });
    expect(await copies(p, boards, 'news')).toEqual(boards.map(() => 1));
    // The filter left out the seeded boards.
    expect((await p.messages('general')).some((m) => m.content === 'news')).toBe(false);
  });

  it('refuses to run before the bot runs, or with a bad id, board id or message, sending nothing', async () => {
    const { platform: p, bot, boards } = await open({ boards: 1 });
    const ids = boards.map((b) => b.id);
    const idle = anotherInstance(p, { handlers: [Pong] });
    const refused = { code: 'BOARDBOT_INVALID_BROADCAST' };
    await expect(idle.broadcast(ids, { content: 'x' }, { id: 'early' })).rejects.toMatchObject(refused);
    await idle.stop();
    await expect(bot.broadcast(ids, { content: 'x' }, { id: 'has space' })).rejects.toMatchObject(refused);
    await expect(bot.broadcast(['general'], { content: 'x' }, { id: 'ok' })).rejects.toMatchObject(refused);
    await expect(bot.broadcast(ids, { content: '' }, { id: 'ok' })).rejects.toMatchObject(refused);
    expect(await copies(p, boards, 'x')).toEqual([0]);
  });

  it('records a board the app left as failed and goes on; the metric counts both outcomes', async () => {
    const { platform: p, bot, boards } = await open({ boards: 3, health: true });
    await p.control.uninstall(p.bot.app.id, (boards[1] as Board).id);
    const report = await bot.broadcast(
      boards.map((b) => b.id),
      { content: 'partly' },
      { id: 'partly' },
    );
    expect(report).toMatchObject({ status: 'done', total: 3, done: 3, sent: 2, failed: 1 });
    expect(report.failures).toEqual([{ boardId: (boards[1] as Board).id, code: 'unknown_board' }]);
    const metrics = await (await fetch(`${bot.healthUrl}/metrics`)).text();
    expect(metrics).toContain('boardbot_broadcast_messages_total{outcome="sent"} 2');
    expect(metrics).toContain('boardbot_broadcast_messages_total{outcome="failed"} 1');
  });

  it('is cancelled by bot.stop(), and resumed by the next process with the same store', async () => {
    const { platform: p, bot, boards, sessions } = await open({ boards: 8 });
    const ids = boards.map((b) => b.id);
    let stopping: Promise<unknown> | undefined;
    const report = await bot.broadcast(
      ids,
      { content: 'bye' },
      {
        id: 'bye',
        onProgress: (s) => {
          if (s.done === 3) stopping = bot.stop();
        },
      },
    );
    await stopping;
    expect(report).toMatchObject({ status: 'cancelled', done: 3 });
    expect(bot.state).toBe('stopped');

    const next = anotherInstance(p, { handlers: [Pong], sessions });
    await next.start();
    try {
      const resumed = await next.broadcast(ids, { content: 'bye' }, { id: 'bye' });
      expect(resumed).toMatchObject({ status: 'done', sent: 8, sentNow: 5 });
      expect(await copies(p, boards, 'bye')).toEqual(ids.map(() => 1));
    } finally {
      await next.stop();
    }
  });

  it("lets a listener's answer (in the same rate limit) and a command's through while it runs", async () => {
    const { platform: p, bot, boards } = await open({ boards: 40, requests: 5 });
    answeredAt = undefined;
    commandAnsweredAt = undefined;
    lastDone = 0;
    const alice = p.person('alice');
    let pinged = false;
    const report = await bot.broadcast(
      'all',
      { content: 'slow news' },
      {
        id: 'slow',
        onProgress: (s) => {
          lastDone = s.done;
          if (s.done < 3 || pinged) return;
          pinged = true;
          void alice.say('ping');
          void alice.invoke('status').then(() => {
            commandAnsweredAt = lastDone;
          });
        },
      },
    );
    expect(report).toMatchObject({ status: 'done', total: boards.length + 2 });
    // Answered while the broadcast still had most of its boards to go (it waited behind at most one of
    // the broadcast's sends), not behind all of them: at 5 requests a second, that is seconds apart.
    expect(answeredAt).toBeDefined();
    expect(answeredAt).toBeLessThan(report.total / 2);
    expect(commandAnsweredAt).toBeDefined();
    expect(commandAnsweredAt).toBeLessThan(report.total / 2);
  });

  it('reads a board back before sending again when its send began longer ago than the platform keeps keys', async () => {
    // The emulator forgets idempotency keys at once, as the platform does after 24 h.
    const { platform: p, bot, boards, sessions } = await open({ boards: 3, keyTtlMs: 1 });
    const body = { content: 'once only' };
    const ids = boards.map((b) => b.id);
    await bot.broadcast(ids, body, { id: 'old' });
    // As if the process had died after sending to the last board but before recording it, a day ago.
    const record = new BroadcastRecord(sessions, 'old', () => Date.now(), 60_000);
    const plan = await record.plan(fingerprintOf(body), async () => ids, true);
    const { version, cursor } = await record.cursor(plan);
    const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
    await record.write(version, { ...cursor, next: 2, sent: 2, since: dayAgo });

    const resumed = await bot.broadcast(ids, body, { id: 'old' });
    expect(resumed).toMatchObject({ status: 'done', sent: 3, sentNow: 1 });
    expect(await copies(p, boards, 'once only')).toEqual([1, 1, 1]);

    // A board in the same doubt that does not show the message is sent it.
    const fresh = { content: 'not yet' };
    const other = new BroadcastRecord(sessions, 'fresh', () => Date.now(), 60_000);
    const freshPlan = await other.plan(fingerprintOf(fresh), async () => ids, true);
    const start = await other.cursor(freshPlan);
    await other.write(start.version, { ...start.cursor, since: dayAgo });
    expect(await bot.broadcast(ids, fresh, { id: 'fresh' })).toMatchObject({ status: 'done', sent: 3, sentNow: 3 });
    expect(await copies(p, boards, 'not yet')).toEqual([1, 1, 1]);
  });
});
