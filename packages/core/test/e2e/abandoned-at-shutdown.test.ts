import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilePositionStore, type MessageContext, OnMessage } from '@boardbot/core';
import { GatewayClient } from '@boardbot/gateway';
import { until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

let slowRuns = 0;
let wrote = false;
let releaseFirst: () => void = () => {};
const firstRunHeld = new Promise<void>((resolve) => {
  releaseFirst = resolve;
});

class Slow {
  // The first run writes its answer, then outlives the shutdown timeout; a later run answers and ends.
  @OnMessage('slow')
  async hold(ctx: MessageContext) {
    slowRuns++;
    await ctx.reply('slow answer');
    wrote = true;
    if (slowRuns === 1) await firstRunHeld;
  }

  @OnMessage('queued')
  echo() {
    return 'queued answer';
  }
}

/**
 * A gateway whose close takes a moment, as tearing down a real connection can: the abandoned run
 * ends before the bot's last save of the resume point, instead of racing it.
 */
class SlowClosingGateway extends GatewayClient {
  override async close(): Promise<void> {
    await super.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a handler abandoned at shutdown', () => {
  let platform: Platform;
  let stateDir: string;

  beforeAll(async () => {
    platform = await TestPlatform.start();
    stateDir = mkdtempSync(join(tmpdir(), 'boardbot-abandoned-'));
  });

  afterAll(async () => {
    releaseFirst();
    await platform?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('is not past the resume point: the next bot on the same state dir handles it, and the queued event, once more', async () => {
    // Regression: the abandoned run counted as finished, so the resume point passed its event and the
    // next process never handled it again.
    const first = platform.bot({
      handlers: [Slow],
      position: new FilePositionStore(stateDir),
      shutdownTimeoutMs: 50,
      gateway: (o) => new SlowClosingGateway(o),
    });
    await first.bot.start();
    const slow = await platform.post(platform.alice, platform.general, 'slow');
    await until(() => wrote, 'the first run wrote its answer');
    // Behind the slow one on its board, still queued when the bot gives up: bob's message. The bot's
    // own answer (its message.create comes back to it) has no listener that sees it, so it is done
    // at once and never queued; the resume point still stops before the slow event.
    const queued = await platform.post(platform.bob, platform.general, 'queued');
    await until(() => first.bot.pending === 2, "bob's message queued behind the slow one");
    const report = await first.bot.stop();
    expect(report.abandoned.map((a) => a.handler)).toEqual(['Slow.hold']);
    expect(report.unhandled).toBe(1);

    const second = platform.bot({ handlers: [Slow], position: new FilePositionStore(stateDir) });
    await second.bot.start();
    const answered = async (to: string) =>
      (await platform.messages(platform.general, 20)).filter((m) => m.reply_to === to).map((m) => m.content);
    await until(async () => (await answered(queued.id)).length > 0, 'the queued message was answered');
    await second.bot.stop();

    expect(slowRuns).toBe(2);
    // The second run sent the first one's Idempotency-Key: the platform gave back the first answer.
    expect(await answered(slow.id)).toEqual(['slow answer']);
    expect(await answered(queued.id)).toEqual(['queued answer']);
  });
});
