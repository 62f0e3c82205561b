import { RestClient } from '@boardbot/rest';
import { type CountingProxy, startCountingProxy } from '@boardbot/test-support';
import type { TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { redisRateLimit } from '../src/index.js';
import { useRedis } from './support/redis.js';
import { botMessages, eventually, freshPrefix, type Replica, replica, replicaPlatform } from './support/replicas.js';

// docs/scaling.md, "Scripts that post as the app": a script's RestClient given the replicas' window
// on Redis counts with the bot, so together they keep under the platform's limit.

const redis = useRedis();
let platform: TestPlatform | undefined;
let bot: Replica | undefined;
let proxy: CountingProxy | undefined;

afterEach(async () => {
  await bot?.bot.stop();
  await proxy?.close();
  await platform?.close();
  bot = undefined;
});

describe('redisRateLimit', () => {
  it("shares the bot's window: a script posting while the bot answers a flood, at 20 requests/s, draws no 429", async () => {
    platform = await replicaPlatform(20);
    proxy = await startCountingProxy(platform.urls.apiUrl);
    const prefix = freshPrefix();
    bot = replica(platform, redis().server.url, prefix, {}, proxy.apiUrl);
    await bot.bot.start();
    const window = redisRateLimit({
      url: redis().server.url,
      token: platform.token,
      apiUrl: proxy.apiUrl,
      keyPrefix: prefix,
    });
    const script = new RestClient({ token: platform.token, baseUrl: proxy.apiUrl, sharedRateLimit: window });
    const random = await platform.board('random');
    const alice = platform.person('alice');
    const asked: string[] = [];
    for (let i = 0; i < 30; i++) asked.push((await alice.say(`m flood ${i}`)).id);
    const notes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => script.sendMessage(random.id, { content: `release note ${i}` })),
    );
    const botUser = platform.bot.app.bot_user_id;
    await eventually(
      async () => botMessages(await (platform as TestPlatform).messages(), botUser).length >= asked.length,
      30_000,
      () => `answered ${asked.length} expected`,
    );
    await script.close();
    await window.close();
    expect(notes).toHaveLength(30);
    expect(proxy.limited).toEqual([]);
  }, 60_000);

  it('refuses a URL that is not Redis, naming the option', () => {
    expect(() => redisRateLimit({ url: 'http://localhost:6379', token: 't', apiUrl: 'http://x/api/v1' })).toThrow(
      expect.objectContaining({ code: 'BOARDBOT_REDIS_INVALID_OPTION' }),
    );
  });
});
