import type { TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { useRedis } from './support/redis.js';
import { eventually, freshPrefix, keyBase, type Replica, replica, replicaPlatform } from './support/replicas.js';

// Issue 40 finding 8: a dead letter outlived deadLetterRetentionMs. The dead-letter entry went, but
// the partition stream kept the same event (a person's text) until the next event on that partition
// trimmed it. A real bot on a real redis-server and emulator; no other event follows the dead one.

const redis = useRedis();
let platform: TestPlatform | undefined;
let replicas: Replica[] = [];

afterEach(async () => {
  for (const r of replicas) await r.bot.stop();
  replicas = [];
  await platform?.close();
  platform = undefined;
});

describe('a dead-lettered event', () => {
  it('leaves no trace in the partition streams once its retention has passed', async () => {
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
    const isDead = (l: Record<string, unknown>) =>
      l.msg === 'event moved to the dead-letter stream: its board moves on';
    await eventually(async () => r.lines.some(isDead), 20_000, log);
    const { entry, partition } = r.lines.find(isDead) as { entry: string; partition: number };

    const base = keyBase(platform, prefix);
    const { client } = redis();
    // The retention passes: the dead-letter stream no longer holds the letter.
    await eventually(async () => (await client.xlen(`${base}:dead`)) === 0, 20_000, log);

    const stream = `${base}:p:${partition}`;
    const left = (await client.xrange(stream, '-', '+')) as [string, string[]][];
    expect(left.map(([id]) => id)).not.toContain(entry);
    const everything = JSON.stringify(left);
    expect(everything).not.toContain(text);
    expect(everything).not.toContain(poison.id);
    // The stream and its group are still there for the next event.
    expect(await client.exists(stream)).toBe(1);
    expect(((await client.xinfo('GROUPS', stream)) as unknown[][]).length).toBe(1);
  });
});
