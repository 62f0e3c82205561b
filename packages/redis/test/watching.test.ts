import { createHash } from 'node:crypto';
import type { TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { useRedis } from './support/redis.js';
import { botMessages, eventually, freshPrefix, type Replica, replica, replicaPlatform } from './support/replicas.js';

// CONTRACT (docs/scaling.md "Watching it"): the keys an operator reads with redis-cli, on a real
// redis-server, after a replica handled one message.

const redis = useRedis();
let platform: TestPlatform | undefined;
let replicas: Replica[] = [];

afterEach(async () => {
  for (const r of replicas) await r.bot.stop();
  replicas = [];
  await platform?.close();
  platform = undefined;
});

/** Every key matching `pattern`, through SCAN as `redis-cli --scan` does. */
async function scan(pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis().client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

describe('the keys docs/scaling.md tells an operator to read', () => {
  it('sit under <prefix>:{<app id>:<platform>} and hold what the table says', async () => {
    platform = await replicaPlatform();
    const prefix = freshPrefix();
    const r = replica(platform, redis().server.url, prefix, { replicaId: 'watch-1' });
    replicas = [r];
    await r.bot.start();
    const said = await platform.person('alice').say('m watched');
    const botUser = platform.bot.app.bot_user_id;
    await eventually(
      async () => botMessages(await (platform as TestPlatform).messages(), botUser).some((m) => m.reply_to === said.id),
      10_000,
      () => 'no answer',
    );
    await r.bot.idle();

    // The platform part is the first 12 hex of the SHA-256 of the API URL.
    const hash = createHash('sha256').update(platform.urls.apiUrl).digest('hex').slice(0, 12);
    const base = `${prefix}:{${platform.bot.app.id}:${hash}}`;
    const keys = await scan(`${prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    const bucketKeys = keys.filter((k) => k.startsWith(`${prefix}:{bucket:`));
    expect(keys.filter((k) => !k.startsWith(`${base}:`) && !bucketKeys.includes(k))).toEqual([]);

    const client = redis().client;
    expect(await client.get(`${base}:reader`)).toMatch(/^\d+:watch-1$/);
    const [member, expires] = await client.zrange(`${base}:members`, '0', '-1', 'WITHSCORES');
    expect(member).toBe('watch-1');
    const [seconds] = await client.time();
    expect(Number(expires)).toBeGreaterThan(Number(seconds) * 1000);

    const streams = keys.filter((k) => /:p:\d+$/.test(k));
    expect(streams.length).toBeGreaterThan(0);
    for (const stream of streams) {
      expect(await client.get(`${stream}:lease`)).toContain('watch-1');
      const groups = (await client.xinfo('GROUPS', stream)) as unknown[][];
      const fields = groups.map((g) =>
        Object.fromEntries(Array.from({ length: g.length / 2 }, (_, i) => [g[2 * i], g[2 * i + 1]])),
      );
      expect(fields).toEqual([expect.objectContaining({ name: 'boardbot', lag: 0 })]);
      expect(await client.xpending(stream, 'boardbot')).toEqual([0, null, null, null]);
    }
    expect(await client.zcard(`${base}:inflight`)).toBe(0);
    expect(await client.xlen(`${base}:dead`)).toBe(0);
    const bucket = bucketKeys.find((k) => !k.endsWith(':slots'));
    expect(bucket).toMatch(new RegExp(`^${prefix}:\\{bucket:[0-9a-f]+\\}$`));
    expect(await client.type(bucket ?? '')).toBe('hash');
    expect(Object.keys(await client.hgetall(bucket ?? '')).length).toBeGreaterThan(0);
  });

  it('keeps the partition count of the first start: a replica started with another uses it and says so', async () => {
    platform = await replicaPlatform();
    const prefix = freshPrefix();
    const first = replica(platform, redis().server.url, prefix, { partitions: 2 });
    await first.bot.start();
    await first.bot.stop();
    const later = replica(platform, redis().server.url, prefix, { partitions: 8 });
    replicas = [later];
    await later.bot.start();
    const warning = later.lines.find((l) => String(l.msg).startsWith('this bot was first started with another'));
    expect(warning).toMatchObject({ level: 40, partitions: 2, configured: 8 });
    const alice = platform.person('alice');
    const said = [await alice.say('m one', { board: 'general' }), await alice.say('m two', { board: 'random' })];
    const botUser = platform.bot.app.bot_user_id;
    await eventually(
      async () => {
        const p = platform as TestPlatform;
        const answers = botMessages([...(await p.messages('general')), ...(await p.messages('random'))], botUser);
        return said.every((m) => answers.some((a) => a.reply_to === m.id));
      },
      10_000,
      () => 'not answered',
    );
    const streams = (await scan(`${prefix}:*`)).filter((k) => /:p:\d+$/.test(k));
    expect(streams.length).toBeGreaterThan(0);
    expect(streams.map((k) => Number(k.split(':').at(-1))).filter((n) => n >= 2)).toEqual([]);
  });
});
