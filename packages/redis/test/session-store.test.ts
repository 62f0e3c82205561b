import { defineSession, type MessageContext, OnMessage } from '@boardbot/core';
import { SESSION_STORE_CONTRACT } from '@boardbot/test-support';
import type { TestPlatform } from '@boardbot/testing';
import { IsInt, Min } from 'class-validator';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisSessionStore } from '../src/index.js';
import { useRedis } from './support/redis.js';
import { eventually, freshPrefix, replicaOf, replicaPlatform } from './support/replicas.js';

const fixture = useRedis();

describe('RedisSessionStore', () => {
  for (const [check, run] of Object.entries(SESSION_STORE_CONTRACT)) {
    it(check, () => run(new RedisSessionStore({ client: () => fixture().client, keyPrefix: freshPrefix() })));
  }

  it('lets Redis reclaim a record a day after it expires, and keeps one without expiry', async () => {
    const prefix = freshPrefix();
    const store = new RedisSessionStore({ client: () => fixture().client, keyPrefix: prefix });
    await store.write('a', 0, { data: {}, shape: 1, expiresAt: Date.now() + 60_000, applied: [] });
    await store.write('b', 0, { data: {}, shape: 1, expiresAt: null, applied: [] });
    const ttl = await fixture().client.pttl(`${prefix}:session:a`);
    expect(ttl).toBeGreaterThan(24 * 60 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(24 * 60 * 60 * 1000 + 60_000);
    expect(await fixture().client.pttl(`${prefix}:session:b`)).toBe(-1);
  });
});

class Tally {
  @IsInt()
  @Min(0)
  count = 0;
}
const Tallies = defineSession(Tally, { per: 'user' });

class Counter {
  @OnMessage('tick')
  async tick(ctx: MessageContext) {
    await ctx.session(Tallies).update((t) => {
      t.count++;
    });
  }
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe('replicas on one Redis', () => {
  it('share their sessions through it: 200 events of one person on two boards, two replicas, no lost update', async () => {
    platform = await replicaPlatform();
    const keyPrefix = freshPrefix();
    const replicas = [0, 1].map(() =>
      replicaOf(platform as TestPlatform, fixture().server.url, keyPrefix, { handlers: [Counter] }),
    );
    try {
      for (const bot of replicas) await bot.start();
      const alice = platform.person('alice');
      const { id: aliceId } = await alice.profile();
      await Promise.all(
        ['general', 'random'].map(async (board) => {
          for (let i = 0; i < 100; i++) await alice.say('tick', { board });
        }),
      );
      const store = new RedisSessionStore({ client: () => fixture().client, keyPrefix });
      const key = `${platform.bot.app.id}:Tally:user:${aliceId}`;
      const count = async () => ((await store.read(key))?.value?.data as { count?: number } | undefined)?.count;
      await eventually(
        async () => (await count()) === 200,
        50_000,
        async () => `count is ${await count()}`,
      );
      for (const bot of replicas) await bot.stop();
      expect(await count()).toBe(200);
    } finally {
      for (const bot of replicas) await bot.stop();
    }
  }, 60_000);
});
