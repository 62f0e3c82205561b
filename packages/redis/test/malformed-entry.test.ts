import type { TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Keys } from '../src/keys.js';
import { useRedis } from './support/redis.js';
import { botMessages, eventually, freshPrefix, type Replica, replica, replicaPlatform } from './support/replicas.js';

// A stream entry is checked with the protocol's compiled checkers before dispatch, on a real
// redis-server and a real emulator over loopback.

const redis = useRedis();
let platform: TestPlatform | undefined;
let replicas: Replica[] = [];

afterEach(async () => {
  for (const r of replicas) await r.bot.stop();
  replicas = [];
  await platform?.close();
  platform = undefined;
});

describe('a malformed stream entry', () => {
  it('goes to the dead letters with its reason, never into a handler, and its partition moves on', async () => {
    platform = await replicaPlatform();
    const prefix = freshPrefix();
    const r = replica(platform, redis().server.url, prefix, { partitions: 1 });
    replicas = [r];
    await r.bot.start();
    const alice = platform.person('alice');
    const botUser = platform.bot.app.bot_user_id;
    const first = await alice.say('m before');
    await eventually(
      async () =>
        botMessages(await (platform as TestPlatform).messages(), botUser).some((m) => m.reply_to === first.id),
      20_000,
      () => 'the first message was not answered',
    );
    // A message.create that Echo's /^m / would match, but with no board, author or seq: written by
    // another program (or another protocol version) straight into the partition stream.
    const keys = new Keys(prefix, platform.bot.app.id, platform.urls.apiUrl);
    const malformed = JSON.stringify({
      name: 'message.create',
      id: '0',
      data: { type: 'message.create', message: { id: 'forged', content: 'm forged' } },
    });
    const [last] = await redis().client.xrevrange(keys.partition(0), '+', '-', 'COUNT', 1);
    const [ms = '0', seq = '0'] = String(last?.[0]).split('-');
    // After the last entry, before the next event's: read in its turn, like any appended entry.
    const forgedId = `${ms}-${Number(seq) + 7}`;
    await redis().client.xadd(keys.partition(0), forgedId, 'e', malformed);
    const after = await alice.say('m after');
    await eventually(
      async () =>
        botMessages(await (platform as TestPlatform).messages(), botUser).some((m) => m.reply_to === after.id),
      20_000,
      () => r.lines.map((l) => l.msg).join('\n'),
    );
    const dead = r.lines.filter((l) => l.msg === 'event moved to the dead-letter stream: its board moves on');
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ entry: forgedId, deliveries: 1 });
    expect(String(dead[0]?.reason)).toContain("message.create event does not have the protocol's shape");
    const entries = (await redis().client.xrange(keys.dead, '-', '+')) as [string, string[]][];
    expect(entries).toHaveLength(1);
    const fields = entries[0]?.[1] ?? [];
    expect(fields[fields.indexOf('entry') + 1]).toBe(forgedId);
    expect(fields[fields.indexOf('reason') + 1]).toContain("does not have the protocol's shape");
    // No handler ran for it: none failed, and nothing echoed it.
    expect(r.lines.filter((l) => String(l.msg).startsWith('handler failed'))).toEqual([]);
    expect((await platform.messages()).some((m) => m.content === 'echo m forged')).toBe(false);
  });
});
