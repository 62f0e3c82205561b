import { until } from '@boardbot/test-support';
import type { TestPlatform } from '@boardbot/testing';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { openConnection } from '../src/connection.js';
import { Keys } from '../src/keys.js';
import { useRedis } from './support/redis.js';
import { botMessages, freshPrefix, type Replica, replica, replicaPlatform } from './support/replicas.js';

// A partition's takeover claims what its last owner left pending (XPENDING with IDLE 0) before it
// reads the partition. If the lease is lost and taken again while that claim runs, the second
// takeover must still run: a replica that renews a lease must consume its partition.

/**
 * Holds a replica's takeover claims (`XPENDING ... IDLE 0`) while closed, and counts those it held;
 * the first ones held may be made to fail when it reopens (a takeover that fails).
 */
class ClaimGate {
  held = 0;
  private open: Promise<void> | undefined;
  private release: () => void = () => {};
  private failing = 0;

  close(): void {
    this.open = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  /** @param failing - how many of the first claims held fail instead of running */
  reopen(failing = 0): void {
    this.failing = failing;
    this.open = undefined;
    this.release();
  }

  /** A `connect` option for `redis()`: the replica's real connection, its takeover claims held here. */
  connect = (url: string): Redis => {
    const client = openConnection(url);
    const call = client.call.bind(client) as (...args: unknown[]) => Promise<unknown>;
    client.call = ((...args: unknown[]) => {
      const open = this.open;
      if (open === undefined || args[0] !== 'XPENDING' || args[4] !== '0') return call(...args);
      const n = this.held++;
      return open.then(() => {
        if (n < this.failing) throw new Error('this takeover claim fails');
        return call(...args);
      });
    }) as typeof client.call;
    return client;
  };
}

const fixture = useRedis();
let platform: TestPlatform | undefined;
let r: Replica | undefined;
let gate = new ClaimGate();

afterEach(async () => {
  gate.reopen();
  await r?.bot.stop();
  r = undefined;
  await platform?.close();
  platform = undefined;
});

/**
 * Starts a replica, then makes every partition lease expire twice: the second time while the
 * takeovers of the first still claim (held by the gate). Resolves with the replica's log and the
 * number of partitions; the takeovers of the first expiry are still held.
 */
async function takenOverTwice(): Promise<{ lines: Replica['lines']; partitions: number }> {
  platform = await replicaPlatform();
  const { client, server } = fixture();
  const prefix = freshPrefix();
  gate = new ClaimGate();
  r = replica(platform, server.url, prefix, { connect: gate.connect });
  await r.bot.start();
  const keys = new Keys(prefix, platform.bot.app.id, platform.urls.apiUrl);
  const partitions = Number(await client.hget(keys.config, 'partitions'));
  const leaseKeys = Array.from({ length: partitions }, (_, p) => keys.partitionLease(p));
  // Every lease expired at once (as after a pause past its expiry): the replica finds each lost at
  // its next heartbeat and takes it again, under a new value.
  const expireAll = async () => {
    const before = await client.mget(...leaseKeys);
    await client.del(...leaseKeys);
    await until(
      async () => (await client.mget(...leaseKeys)).every((v, p) => v !== null && v !== before[p]),
      'every partition lease taken again',
    );
  };
  gate.close();
  await expireAll();
  await until(() => gate.held === partitions, 'every takeover claiming what was left pending');
  // Lost and taken again while the first takeovers still claim.
  await expireAll();
  return { lines: r.lines, partitions };
}

/** Says a message on `general` and resolves once the bot answered it, with the answer. */
async function answered(): Promise<{ asked: string; replyTo: string | null | undefined }> {
  const p = platform as TestPlatform;
  const asked = await p.person('alice').say('m after the takeovers');
  const botUser = p.bot.app.bot_user_id;
  await until(async () => botMessages(await p.messages('general'), botUser).length === 1, 'the message answered');
  const [answer] = botMessages(await p.messages('general'), botUser);
  return { asked: asked.id, replyTo: answer?.reply_to };
}

describe('a partition taken over again while its takeover runs', () => {
  it('is consumed: the second takeover runs once the first one ends', async () => {
    await takenOverTwice();
    gate.reopen();
    const { asked, replyTo } = await answered();
    expect(replyTo).toBe(asked);
  }, 30_000);

  it('is kept when the takeover of the lost lease fails: that failure drops neither the partition nor its new lease', async () => {
    const { lines, partitions } = await takenOverTwice();
    // The takeovers of the lost leases fail; those of the leases held now run.
    gate.reopen(partitions);
    const { asked, replyTo } = await answered();
    expect(replyTo).toBe(asked);
    expect(lines.filter((l) => l.msg?.startsWith('could not take the partition over'))).toEqual([]);
  }, 30_000);
});
