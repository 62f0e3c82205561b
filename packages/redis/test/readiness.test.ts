import type { TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { useRedis } from './support/redis.js';
import { Echo, eventually, freshPrefix, replicaOf, replicaPlatform } from './support/replicas.js';

const fixture = useRedis();
let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

/** What a replica's `/readyz` says. */
async function readyz(url: string | undefined): Promise<{ status: number; body: { checks: Record<string, boolean> } }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as { checks: Record<string, boolean> } };
}

describe('replica readiness', () => {
  it('is reported by the adapter: the reader is ready with its gateway, the other replica while it consumes', async () => {
    platform = await replicaPlatform();
    const keyPrefix = freshPrefix();
    const replicas = [0, 1].map(() =>
      replicaOf(platform as TestPlatform, fixture().server.url, keyPrefix, { handlers: [Echo], health: { port: 0 } }),
    );
    try {
      for (const bot of replicas) await bot.start();
      // Nobody called reportReplicas: both are ready, one as the reader, one as a consumer.
      for (const bot of replicas) {
        await eventually(
          async () => (await readyz(bot.healthUrl)).status === 200,
          10_000,
          () => 'not ready',
        );
      }
      const metrics = await Promise.all(replicas.map(async (bot) => (await fetch(`${bot.healthUrl}/metrics`)).text()));
      for (const text of metrics) expect(text).toMatch(/^boardbot_replica_pending_events \d+$/m);

      // Redis gone: a consumer cannot consume, so it is no longer ready.
      await fixture().server.close();
      await eventually(
        async () =>
          (await Promise.all(replicas.map(async (bot) => (await readyz(bot.healthUrl)).status))).includes(503),
        15_000,
        () => 'a replica still ready without Redis',
      );
    } finally {
      for (const bot of replicas) await bot.stop().catch(() => {});
    }
  }, 60_000);
});
