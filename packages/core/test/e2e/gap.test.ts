import { MemoryPositionStore, type MessageContext, OnMessage, type PositionStore } from '@boardbot/core';
import { GatewayClient } from '@boardbot/gateway';
import type { Message } from '@boardbot/protocol';
import { envelope, sample, until } from '@boardbot/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBotBehindProxy } from './support/bot-behind-proxy.js';

const heard: { board: string; content: string }[] = [];

class Recorder {
  @OnMessage()
  record(ctx: MessageContext) {
    heard.push({ board: ctx.boardId, content: ctx.message.content ?? '' });
  }
}

// With a resume point, each board is read back to its handled mark; with `position: false`, which
// keeps no Progress, to the highest seq the bot received.
describe.each<{ keeping: string; position: () => PositionStore | false }>([
  { keeping: 'a resume point', position: () => new MemoryPositionStore() },
  { keeping: 'no resume point (position: false)', position: () => false },
])('a gateway gap, keeping $keeping', ({ position }) => {
  beforeAll(() => {
    heard.length = 0;
  });
  // Keep almost nothing for resume, so a dropped stream cannot be replayed.
  const behind = useBotBehindProxy(
    {
      handlers: [Recorder],
      position: position(),
      health: { port: 0 },
      gateway: (o) => new GatewayClient({ ...o, reconnect: { initialDelayMs: 20, maxDelayMs: 100 } }),
    },
    { limits: { retainedEvents: 1, retainedEventsMs: 0 } },
  );

  it('backfills the missed messages over REST and dispatches each once, in order', async () => {
    const { platform, proxy, bot, logs } = behind();
    const before = await platform.post(platform.alice, platform.general, 'before the cut');
    await until(() => heard.some((h) => h.content === 'before the cut'), 'the first message was heard live');

    proxy.cut();
    const missed: Message[] = [];
    for (const text of ['missed 1', 'missed 2', 'missed 3'])
      missed.push(await platform.post(platform.bob, platform.general, text));
    // A board the bot has not heard anything from yet: backfilled from its start time.
    missed.push(await platform.post(platform.alice, platform.random, 'missed on random'));
    const gone = await platform.post(platform.bob, platform.general, 'deleted during the cut');
    await platform.control.deleteMessage(platform.general.id, gone.id);
    // Enough events for the emulator to prune the log past the bot's resume point.
    const edit = (i: number) => platform.control.editMessage(platform.general.id, before.id, `edit ${i}`);
    for (let i = 0; i < 520; i += 10) await Promise.all([...Array(10).keys()].map((k) => edit(i + k)));
    proxy.restore();

    await until(() => heard.some((h) => h.content === 'missed on random'), 'the backfill reached the bot', {
      timeoutMs: 20_000,
    });
    await bot.idle();
    const contents = heard.map((h) => h.content);
    // Order holds per board; boards are backfilled side by side.
    const on = (board: string) =>
      heard.filter((h) => h.board === board && h.content.startsWith('missed')).map((h) => h.content);
    expect(on(platform.general.id)).toEqual(['missed 1', 'missed 2', 'missed 3']);
    expect(on(platform.random.id)).toEqual(['missed on random']);
    expect(contents.filter((c) => c === 'before the cut')).toHaveLength(1);
    expect(contents).not.toContain('deleted during the cut');
    const gap = logs.lines().find((l) => l.msg === 'gateway gap: dispatching missed messages');
    expect(gap).toMatchObject({ messages: 4 });
    // general is read back after the message the bot had; random, where it had none, from its start.
    const from = logs.lines().filter((l) => String(l.msg).startsWith('backfilling'));
    expect(from.find((l) => l.board_id === platform.general.id)).toMatchObject({ after_seq: before.seq });
    expect(from.find((l) => l.board_id === platform.random.id)?.msg).toMatch(/^backfilling from a time/);

    // docs/observability.md: the reconnect, its gap and the messages read back are counted.
    const metrics = await (await fetch(`${bot.healthUrl}/metrics`)).text();
    expect(sample(metrics, 'boardbot_gateway_gaps_total')).toBe(1);
    expect(sample(metrics, 'boardbot_backfilled_messages_total')).toBe(4);
    expect(sample(metrics, 'boardbot_gateway_reconnects_total')).toBeGreaterThanOrEqual(1);

    // Live delivery goes on after the gap.
    await platform.post(platform.alice, platform.general, 'after the gap');
    await until(() => heard.some((h) => h.content === 'after the gap'), 'live delivery after the gap');
  });
});

describe('a gateway gap longer than backfillLimit', () => {
  beforeAll(() => {
    heard.length = 0;
  });
  const behind = useBotBehindProxy(
    {
      handlers: [Recorder],
      backfillLimit: 2,
      gateway: (o) => new GatewayClient({ ...o, reconnect: { initialDelayMs: 20, maxDelayMs: 100 } }),
    },
    { limits: { retainedEvents: 1, retainedEventsMs: 0 } },
  );

  it('handles the newest backfillLimit missed messages of a board, in order, and says the older are skipped', async () => {
    const { platform, proxy, bot, logs } = behind();
    const before = await platform.post(platform.alice, platform.general, 'before the cut');
    await until(() => heard.some((h) => h.content === 'before the cut'), 'the first message was heard live');
    proxy.cut();
    for (const text of ['missed 1', 'missed 2', 'missed 3']) await platform.post(platform.bob, platform.general, text);
    const edit = (i: number) => platform.control.editMessage(platform.general.id, before.id, `edit ${i}`);
    for (let i = 0; i < 520; i += 10) await Promise.all([...Array(10).keys()].map((k) => edit(i + k)));
    proxy.restore();
    await until(() => heard.some((h) => h.content === 'missed 3'), 'the backfill reached the bot', {
      timeoutMs: 20_000,
    });
    await bot.idle();
    expect(heard.map((h) => h.content).filter((c) => c.startsWith('missed'))).toEqual(['missed 2', 'missed 3']);
    const warning = logs.lines().find((l) => l.msg === 'backfill limit reached: older missed messages are skipped');
    expect(warning).toMatchObject({ level: 40, board_id: platform.general.id, limit: 2 });
  });
});

describe('a gateway gap whose backfill the platform refuses', () => {
  beforeAll(() => {
    heard.length = 0;
  });
  const behind = useBotBehindProxy(
    {
      handlers: [Recorder],
      gateway: (o) => new GatewayClient({ ...o, reconnect: { initialDelayMs: 20, maxDelayMs: 100 } }),
    },
    { limits: { retainedEvents: 1, retainedEventsMs: 0 } },
  );

  it('logs that the missed messages are not handled, at error, and live delivery goes on', async () => {
    const { platform, proxy, logs } = behind();
    const before = await platform.post(platform.alice, platform.general, 'before the cut');
    await until(() => heard.some((h) => h.content === 'before the cut'), 'the first message was heard live');
    proxy.cut();
    await platform.post(platform.bob, platform.general, 'missed');
    const edit = (i: number) => platform.control.editMessage(platform.general.id, before.id, `edit ${i}`);
    for (let i = 0; i < 520; i += 10) await Promise.all([...Array(10).keys()].map((k) => edit(i + k)));
    // Listing a board's messages is refused (not retried): the backfill cannot read the gap.
    proxy.faultWith((request) =>
      request.method === 'GET' && /\/boards\/[^/]+\/messages/.test(request.url)
        ? { status: 403, body: envelope('forbidden', 'no') }
        : undefined,
    );
    proxy.restore();
    const failed = 'backfill after a gateway gap failed: missed messages are not handled';
    await until(() => logs.lines().some((l) => l.msg === failed), 'the failed backfill was logged', {
      timeoutMs: 20_000,
    });
    expect(logs.lines().find((l) => l.msg === failed)).toMatchObject({ level: 50 });
    proxy.faultWith(() => undefined);
    await platform.post(platform.alice, platform.general, 'after the gap');
    await until(() => heard.some((h) => h.content === 'after the gap'), 'live delivery after the gap');
    expect(heard.map((h) => h.content)).not.toContain('missed');
  });
});
