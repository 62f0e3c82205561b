import { until } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { useRedis } from './support/redis.js';
import { freshPrefix, replica, replicaPlatform } from './support/replicas.js';

// A replica waits up to `blockMs` for new entries: for its reader's appends, or in a blocking XREAD
// when another replica reads the gateway. Releasing a partition and stopping cut that wait short
// instead of waiting it out.

const fixture = useRedis();

/** Clients Redis holds in a blocking command now (`INFO clients`). */
async function blockedClients(): Promise<number> {
  return Number(/blocked_clients:(\d+)/.exec(String(await fixture().client.info('clients')))?.[1] ?? 0);
}

describe('a stop', () => {
  it('hands partitions to a newcomer and stops at once, not after blockMs', async () => {
    const platform = await replicaPlatform();
    const prefix = freshPrefix();
    // The longest allowed: past this test's timeout, which a stop that waits the read out would reach.
    const options = { blockMs: 60_000 };
    const a = replica(platform, fixture().server.url, prefix, options);
    const b = replica(platform, fixture().server.url, prefix, options);
    try {
      await a.bot.start();
      await b.bot.start();
      // The newcomer blocks in XREAD only once the first released partitions to it: the first
      // waited for its reader's appends, holding them, for up to blockMs.
      await until(async () => (await blockedClients()) >= 1, 'a replica blocked in XREAD', { timeoutMs: 15_000 });
      await Promise.all([a.bot.stop(), b.bot.stop()]);
      expect(await blockedClients()).toBe(0);
    } finally {
      await Promise.all([a.bot.stop(), b.bot.stop()]);
      await platform.close();
    }
  }, 30_000);
});
