import { type MessageContext, OnMessage } from '@boardbot/core';
import { until } from '@boardbot/test-support';
import type { TestPlatform } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';
import { useRedis } from './support/redis.js';
import { freshPrefix, replicaOf, replicaPlatform } from './support/replicas.js';

// The reader's own partitions are read along with each append, and its consumer waits for the
// reader's appends rather than on a blocking XREAD: one round trip from an event to its handler.

const fixture = useRedis();

const handled = new Map<string, string[]>();

class Record {
  @OnMessage(/^n /)
  record(ctx: MessageContext) {
    const seen = handled.get(ctx.message.board_id) ?? [];
    seen.push(ctx.message.content ?? '');
    handled.set(ctx.message.board_id, seen);
  }
}

/** How many blocking XREADs the server has run (its own count, `INFO commandstats`). */
async function blockingReads(): Promise<number> {
  const stats = String(await fixture().client.info('commandstats'));
  return Number(/cmdstat_xread:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

describe("the reader's own events", () => {
  it('reach their handlers in order per board with no blocking read per event', async () => {
    const platform: TestPlatform = await replicaPlatform();
    const bot = replicaOf(platform, fixture().server.url, freshPrefix(), { handlers: [Record] });
    try {
      await bot.start();
      const before = await blockingReads();
      const boards = ['general', 'random'];
      for (let i = 0; i < 30; i++) await platform.person('alice').say(`n ${i}`, { board: boards[i % 2] as string });
      const total = () => [...handled.values()].reduce((n, seen) => n + seen.length, 0);
      await until(async () => total() === 30, 'thirty handled messages');
      const sent = (b: number) => Array.from({ length: 15 }, (_, k) => `n ${2 * k + b}`);
      expect([...handled.values()].sort((x, y) => (x[0] === 'n 0' ? -1 : y[0] === 'n 0' ? 1 : 0))).toEqual([
        sent(0),
        sent(1),
      ]);
      // At most the one blocking read that may have begun before this replica was elected and ends
      // within blockMs; none per event.
      expect(await blockingReads()).toBeLessThanOrEqual(before + 1);
    } finally {
      await bot.stop();
      await platform.close();
    }
  }, 60_000);
});
