import { type MessageContext, OnMessage } from '@boardbot/core';
import { GatewayClient } from '@boardbot/gateway';
import type { Message } from '@boardbot/protocol';
import { until } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { useBotBehindProxy } from './support/bot-behind-proxy.js';

// docs/listening-to-messages.md, "Editable answers": edits made during a gap are not answered (the
// platform does not replay them); a message read back by the backfill is answered and linked like a
// new one, and its later edits follow.

class Echo {
  @OnMessage(/^echo /, { editable: true })
  echo(ctx: MessageContext) {
    return `heard: ${ctx.message.content?.slice(5)}`;
  }
}

describe('editable answers and a gateway gap', () => {
  // Keep almost nothing for resume, so a dropped stream cannot be replayed.
  const behind = useBotBehindProxy(
    {
      handlers: [Echo],
      gateway: (o) => new GatewayClient({ ...o, reconnect: { initialDelayMs: 20, maxDelayMs: 100 } }),
    },
    { limits: { retainedEvents: 1, retainedEventsMs: 0 } },
  );

  it('leaves an edit made during the gap unanswered, and follows the edits of a message the backfill read back', async () => {
    const { platform, proxy, bot, logs } = behind();
    const answersTo = async (message: Message) =>
      (await platform.messages(platform.general)).filter((m) => m.reply_to === message.id && m.deleted_at === null);
    const answered = (message: Message, content: string) =>
      until(async () => (await answersTo(message)).some((m) => m.content === content), `"${content}"`);
    const before = await platform.post(platform.alice, platform.general, 'echo before');
    await answered(before, 'heard: before');

    proxy.cut();
    await platform.control.editMessage(platform.general.id, before.id, 'echo edited in the gap');
    const missed = await platform.post(platform.bob, platform.general, 'echo missed');
    // Enough events for the emulator to prune the log past the bot's resume point.
    const noise = await platform.post(platform.bob, platform.random, 'noise');
    for (let i = 0; i < 30; i++) await platform.control.editMessage(platform.random.id, noise.id, `noise ${i}`);
    proxy.restore();

    await answered(missed, 'heard: missed');
    await bot.idle();
    expect(logs.lines().find((l) => l.msg === 'gateway gap: dispatching missed messages')).toBeDefined();
    expect((await answersTo(before)).map((m) => m.content)).toEqual(['heard: before']);

    // Live again: the backfilled message's edit edits its answer in place.
    const [first] = await answersTo(missed);
    await platform.control.editMessage(platform.general.id, missed.id, 'echo missed, then fixed');
    await answered(missed, 'heard: missed, then fixed');
    expect((await answersTo(missed)).map((m) => m.id)).toEqual([first?.id]);
  });
});
