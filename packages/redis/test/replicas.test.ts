import { type CountingProxy, sample, startCountingProxy } from '@boardbot/test-support';
import type { TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { useRedis } from './support/redis.js';
import {
  botMessages,
  eventually,
  freshPrefix,
  keyBase,
  type Replica,
  replica,
  replicaPlatform,
} from './support/replicas.js';

// Replicas of one bot in this process, on a real redis-server and a real emulator over loopback.

const redis = useRedis();
let platform: TestPlatform | undefined;
let replicas: Replica[] = [];
let proxy: CountingProxy | undefined;

afterEach(async () => {
  for (const r of replicas) await r.bot.stop();
  replicas = [];
  await proxy?.close();
  proxy = undefined;
  await platform?.close();
  platform = undefined;
});

const BOARDS = ['general', 'random', 'ops', 'lounge'];

describe('replicas sharing one Redis', () => {
  it('answer every message and command once, in order per board, with one reader and the partitions split', async () => {
    platform = await replicaPlatform();
    for (const name of BOARDS.slice(2)) await platform.createBoard(name);
    const prefix = freshPrefix();
    replicas = [replica(platform, redis().server.url, prefix), replica(platform, redis().server.url, prefix)];
    await replicas[0]?.bot.start();
    await replicas[1]?.bot.start();
    const alice = platform.person('alice');
    const posted = new Map<string, string[]>(BOARDS.map((b) => [b, []]));
    const asked = new Map<string, string[]>(BOARDS.map((b) => [b, []]));
    for (let i = 0; i < 40; i++) {
      for (const board of BOARDS) {
        posted.get(board)?.push((await alice.say(`m ${board}-${i}`, { board })).id);
        if (i % 4 === 0) asked.get(board)?.push((await alice.start('ask', { n: i }, { board })).id);
      }
    }
    const botUser = platform.bot.app.bot_user_id;
    const answeredAll = async () => {
      for (const board of BOARDS) {
        const mine = botMessages(await (platform as TestPlatform).messages(board), botUser);
        if (mine.length < (posted.get(board)?.length ?? 0) + (asked.get(board)?.length ?? 0)) return false;
      }
      return true;
    };
    await eventually(answeredAll, 20_000, () => 'not every message was answered');
    // Both replicas handled some: the partitions were split between them.
    for (const board of BOARDS) {
      const mine = botMessages(await platform.messages(board), botUser);
      const replies = mine.filter((m) => m.reply_to !== null);
      expect(replies.map((r) => r.reply_to)).toEqual(posted.get(board));
      expect(mine.filter((m) => m.interaction !== null).map((a) => a.interaction?.id)).toEqual(asked.get(board));
    }
    const readers = replicas.filter((r) =>
      r.lines.some((l) => l.msg === 'reader elected: this replica reads the gateway'),
    );
    expect(readers).toHaveLength(1);
    // The first replica took every partition, then handed half of them to the second.
    expect(replicas[0]?.lines.filter((l) => l.msg === 'partition handed over')).toHaveLength(8);
  });

  it('dead-letters an event whose handler always throws after maxDeliveries tries, and its board moves on', async () => {
    platform = await replicaPlatform();
    const prefix = freshPrefix();
    const r = replica(platform, redis().server.url, prefix, { maxDeliveries: 3 }, platform.urls.apiUrl, {
      health: { port: 0 },
    });
    replicas = [r];
    await r.bot.start();
    const alice = platform.person('alice');
    const poison = await alice.say('poison pill');
    const after = await alice.say('m after the poison');
    const botUser = platform.bot.app.bot_user_id;
    await eventually(
      async () =>
        botMessages(await (platform as TestPlatform).messages(), botUser).some((m) => m.reply_to === after.id),
      20_000,
      () => r.lines.map((l) => l.msg).join('\n'),
    );
    const failures = r.lines.filter((l) => l.msg === 'handler failed' && l.handler === 'Echo.poison');
    expect(failures).toHaveLength(3);
    const dead = r.lines.filter((l) => l.msg === 'event moved to the dead-letter stream: its board moves on');
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ level: 50, deliveries: 3, reason: 'its handlers failed 3 times' });
    // docs/scaling.md's log lines: each run before the last says the event comes again.
    const again = r.lines.filter((l) => String(l.msg).startsWith('handler failed: the event is delivered again'));
    expect(again.map((l) => [l.level, l.attempt])).toEqual([
      [40, 1],
      [40, 2],
    ]);
    const metrics = await (await fetch(`${r.bot.healthUrl}/metrics`)).text();
    expect(sample(metrics, 'boardbot_replica_dead_lettered_events')).toBe(1);
    const entries = (await redis().client.xrange(`${keyBase(platform, prefix)}:dead`, '-', '+')) as [
      string,
      string[],
    ][];
    expect(entries).toHaveLength(1);
    expect(entries[0]?.[1].at(-1)).toContain(poison.id);
  });

  it('removes the dead letters older than deadLetterRetentionMs while it runs, with no new one (issue 29 finding 7)', async () => {
    platform = await replicaPlatform();
    const prefix = freshPrefix();
    const dead = `${keyBase(platform, prefix)}:dead`;
    const { client } = redis();
    const [seconds, micros] = await client.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    // Letters of an earlier run: one past the retention, one within it (ids are Redis's clock).
    await client.xadd(dead, `${now - 120_000}-0`, 'event', '{"old":true}');
    const young = await client.xadd(dead, `${now - 1_000}-0`, 'event', '{"young":true}');
    const r = replica(platform, redis().server.url, prefix, { deadLetterRetentionMs: 60_000 }, platform.urls.apiUrl);
    replicas = [r];
    await r.bot.start();
    await eventually(
      async () => (await client.xlen(dead)) === 1,
      20_000,
      () => r.lines.map((l) => l.msg).join('\n'),
    );
    expect(((await client.xrange(dead, '-', '+')) as [string, string[]][]).map(([id]) => id)).toEqual([young]);
  });

  // Issue 40 finding 8: the dead letter went with its retention, but the partition stream kept the same
  // event (a person's text) until the next event on that partition trimmed it. No event follows here.
  it('leave no trace of a dead-lettered event in its partition stream once its retention has passed', async () => {
    platform = await replicaPlatform();
    const prefix = freshPrefix();
    // No apology either: the bot's own reply would be a later event on the same partition.
    const scale = { maxDeliveries: 2, deadLetterRetentionMs: 1000 };
    const r = replica(platform, redis().server.url, prefix, scale, platform.urls.apiUrl, { errorReply: false });
    replicas = [r];
    await r.bot.start();
    const text = 'poison: my address is 12 Elm Street';
    const poison = await platform.person('alice').say(text);
    const log = () => r.lines.map((l) => l.msg).join('\n');
    const isDead = (l: { msg?: string }) => l.msg === 'event moved to the dead-letter stream: its board moves on';
    await eventually(async () => r.lines.some(isDead), 20_000, log);
    const { entry, partition } = r.lines.find(isDead) as { entry: string; partition: number };
    const base = keyBase(platform, prefix);
    const { client } = redis();
    // The retention passes: the dead-letter stream no longer holds the letter.
    await eventually(async () => (await client.xlen(`${base}:dead`)) === 0, 20_000, log);

    const stream = `${base}:p:${partition}`;
    const left = (await client.xrange(stream, '-', '+')) as [string, string[]][];
    expect(left.map(([id]) => id)).not.toContain(entry);
    expect(JSON.stringify(left)).not.toContain(text);
    expect(JSON.stringify(left)).not.toContain(poison.id);
    // The stream and its group stay for the next event.
    expect(((await client.xinfo('GROUPS', stream)) as unknown[][]).length).toBe(1);
  });

  it('share the rate limit: two replicas flooded at 20 requests/s draw no 429 on the wire', async () => {
    platform = await replicaPlatform(20);
    proxy = await startCountingProxy(platform.urls.apiUrl);
    const prefix = freshPrefix();
    replicas = [0, 1].map(() => replica(platform as TestPlatform, redis().server.url, prefix, {}, proxy?.apiUrl));
    for (const r of replicas) await r.bot.start();
    const alice = platform.person('alice');
    const posted: string[] = [];
    for (let i = 0; i < 60; i++) posted.push((await alice.say(`m flood ${i}`)).id);
    const botUser = platform.bot.app.bot_user_id;
    await eventually(
      async () => botMessages(await (platform as TestPlatform).messages(), botUser).length >= posted.length,
      30_000,
      () => `answered ${posted.length} expected`,
    );
    expect(proxy.limited).toEqual([]);
    expect(botMessages(await platform.messages(), botUser).map((m) => m.reply_to)).toEqual(posted);
  }, 60_000);
});
