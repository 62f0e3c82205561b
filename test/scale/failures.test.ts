import { createHash } from 'node:crypto';
import { botMessages, until } from '@boardbot/test-support';
import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, cluster } from './support/cluster.js';
import { buildReplicaBot, type ReplicaProcess } from './support/replica-process.js';

// CONTRACT (docs/scaling.md "What survives what"): replicas of the fixture bot as real processes, on a
// real redis-server (append-only file on) and a real emulator over loopback.

beforeAll(() => buildReplicaBot(), 180_000);

let c: Cluster | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

const LEASE = { REPLICA_LEASE_MS: '1500' };

/** Starts `n` replicas and waits for each. */
async function replicas(n: number): Promise<ReplicaProcess[]> {
  const started = Array.from({ length: n }, () => (c as Cluster).start());
  for (const r of started) await r.started();
  return started;
}

/** Waits until the bot answered every message of `posted` on `board`, then checks once and in order. */
async function expectAnsweredOnce(posted: { id: string; content: string | null }[], board = 'general') {
  const { platform } = c as Cluster;
  const botUser = platform.bot.app.bot_user_id;
  const replies = async () => botMessages(await platform.messages(board), botUser);
  await until(async () => (await replies()).length >= posted.length, `${posted.length} answers`, {
    timeoutMs: 60_000,
    intervalMs: 250,
    report: async () => `${(await replies()).length} answered\n${c?.report()}`,
  });
  const answered = await replies();
  expect(answered.map((m) => m.reply_to)).toEqual(posted.map((m) => m.id));
  expect(answered.map((m) => m.content)).toEqual(posted.map((m) => `echo ${m.content}`));
}

describe('replicas under failures', () => {
  it('four replicas flooded at the default limit of 50 requests/s draw no 429 on the wire', async () => {
    c = await cluster({ requests: 50, extra: LEASE });
    await replicas(4);
    const alice = c.platform.person('alice');
    const posted = await Promise.all(Array.from({ length: 400 }, (_, i) => alice.say(`m flood ${i}`)));
    posted.sort((a, b) => a.seq - b.seq);
    await expectAnsweredOnce(posted);
    expect(c.proxy.limited).toEqual([]);
    expect(c.proxy.statuses.get(200)).toBeGreaterThanOrEqual(400);
  }, 120_000);

  it('loses nothing and repeats nothing when Redis restarts mid-run (append-only file)', async () => {
    c = await cluster({ requests: 1_000_000, extra: LEASE });
    const [first, second] = await replicas(2);
    const alice = c.platform.person('alice');
    const posted = [];
    for (let i = 0; i < 200; i++) {
      if (i === 80) await c.redis.stop();
      if (i === 120) await c.redis.start();
      posted.push(await alice.say(`m restart ${i}`));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await expectAnsweredOnce(posted);
    // Both replicas lived through it: nothing was restarted but Redis.
    expect(first?.lines.some((l) => l.msg === 'bot stopped')).toBe(false);
    expect(second?.lines.some((l) => l.msg === 'bot stopped')).toBe(false);
  }, 120_000);

  it('a reader paused with SIGSTOP past its lease cannot append once it resumes', async () => {
    c = await cluster({ requests: 1_000_000, extra: LEASE });
    const started = await replicas(2);
    const redis = new Redis(c.redis.url);
    const tag = createHash('sha256').update(c.proxy.apiUrl).digest('hex').slice(0, 12);
    const leaseValue = await redis.get(`${c.prefix}:{${c.platform.bot.app.id}:${tag}}:reader`);
    redis.disconnect();
    const paused = started.find((r) => r.id === leaseValue?.split(':')[1]) as ReplicaProcess;
    const other = started.find((r) => r !== paused) as ReplicaProcess;
    const alice = c.platform.person('alice');
    const posted = [await alice.say('m before the pause')];

    await paused.signal('SIGSTOP');
    await other.waitFor((l) => l.msg === 'reading the gateway');
    // Its gateway stream still receives these while it is paused; it tries to append them on waking.
    for (let i = 0; i < 20; i++) posted.push(await alice.say(`m while paused ${i}`));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await paused.signal('SIGCONT');
    const deposed = await paused.waitFor((l) => typeof l.msg === 'string' && l.msg.startsWith('reader deposed'));
    expect(deposed.refused_appends).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) posted.push(await alice.say(`m after the pause ${i}`));
    await expectAnsweredOnce(posted);
  }, 120_000);

  it('an event whose handler kills its replica at once is dead-lettered after maxDeliveries runs, and its board moves on', async () => {
    // Each run is counted before its handler starts, even the first run of an entry just read (whose
    // count is sent without waiting for its reply): otherwise the event would kill replicas for ever.
    c = await cluster({ requests: 1_000_000, extra: { ...LEASE, REPLICA_MAX_DELIVERIES: '2' } });
    const alice = c.platform.person('alice');
    let current = c.start();
    await current.started();
    const poison = await alice.say('crash now');
    const after = [await alice.say('m after the crash')];
    const deaths: (number | NodeJS.Signals)[] = [];
    // Two runs, each killing its replica; the third replica dead-letters the event without running it.
    // The second is not awaited as started: on a loaded machine the first one's lease may have expired
    // before it joins, and then it takes the partition over, and dies, while it starts.
    for (let i = 0; i < 2; i++) {
      deaths.push(await current.exited);
      current = c.start();
    }
    await current.started();
    expect(deaths).toEqual(['SIGKILL', 'SIGKILL']);
    const dead = await current.waitFor((l) => l.msg === 'event moved to the dead-letter stream: its board moves on');
    expect(dead).toMatchObject({ deliveries: 2 });
    expect(String(dead.reason)).toContain('did not finish in 2 runs');
    // docs/scaling.md: the replica that took the dead one's partition says so, with what it claimed.
    const takenOver = current.lines.find((l) => String(l.msg).startsWith('partition taken over'));
    expect(takenOver).toMatchObject({ claimed: expect.any(Number) });
    expect(Number(takenOver?.claimed)).toBeGreaterThanOrEqual(1);
    await expectAnsweredOnce(after);
    const redis = new Redis(c.redis.url);
    const tag = createHash('sha256').update(c.proxy.apiUrl).digest('hex').slice(0, 12);
    const letters = await redis.xrange(`${c.prefix}:{${c.platform.bot.app.id}:${tag}}:dead`, '-', '+');
    redis.disconnect();
    expect(letters).toHaveLength(1);
    expect(letters[0]?.[1].at(-1)).toContain(poison.id);
    expect(current.lines.some((l) => l.msg === 'bot stopped')).toBe(false);
  }, 120_000);

  it('every replica down for longer than the replay window: the first one back reads the missed messages once', async () => {
    // The emulator keeps only its last event for resume (no time window, so whether the log is pruned
    // past the feed's resume point never depends on how many posts fit in a millisecond).
    c = await cluster({ requests: 1_000_000, extra: LEASE, limits: { retainedEvents: 1, retainedEventsMs: 0 } });
    const started = await replicas(2);
    const alice = c.platform.person('alice');
    const before = [await alice.say('m before the outage')];
    await expectAnsweredOnce(before);
    for (const r of started) await r.kill();
    const general = Array.from({ length: 15 }, (_, i) => `m outage ${i}`);
    const missed = [];
    for (const text of general) missed.push(await alice.say(text));
    const onRandom = [await alice.say('m outage on random', { board: 'random' })];

    const [back] = await replicas(1);
    const filled = await (back as ReplicaProcess).waitFor(
      (l) => l.msg === 'gateway gap: appending the missed messages first',
    );
    expect(filled.messages).toBe(missed.length + onRandom.length);
    await expectAnsweredOnce([...before, ...missed]);
    await expectAnsweredOnce(onRandom, 'random');
  }, 120_000);
});
