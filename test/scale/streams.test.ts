import type { Message } from '@boardbot/protocol';
import { botMessages, until } from '@boardbot/test-support';
import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, cluster } from './support/cluster.js';
import { buildReplicaBot, type ReplicaProcess } from './support/replica-process.js';

// docs/assistants.md, "A stream does not hold its board" and "A replica that loses its partition":
// replicas of the fixture bot as real processes on a real redis-server and emulator. A stream frees
// its board after its first post while its entry stays unacknowledged until it ends; a replica paused
// (SIGSTOP) mid-stream past its lease writes nothing more to the answer once it wakes, while the
// partition's new owner runs the event again and completes the answer, once. The tests wait on what
// the replicas log and on what the emulator recorded, never on a fixed sleep.

beforeAll(() => buildReplicaBot(), 180_000);

let c: Cluster | undefined;
let redis: Redis | undefined;
afterEach(async () => {
  redis?.disconnect();
  redis = undefined;
  await c?.close();
  c = undefined;
});

const EXTRA = { REPLICA_LEASE_MS: '1000' };
/** The fixture's answer to `stream <n>`: 40 pieces. */
const STREAMED = Array.from({ length: 40 }, (_, i) => `piece ${i}. `)
  .join('')
  .trim();

/** The bot's live messages on general replying to `to`. */
async function answersTo(cl: Cluster, to: Message): Promise<Message[]> {
  const mine = botMessages(await cl.platform.messages('general'), cl.platform.bot.app.bot_user_id);
  return mine.filter((m) => m.reply_to === to.id && m.deleted_at === null);
}

/** How many entries the replicas took and have not acknowledged yet. */
async function unacknowledged(cl: Cluster, r: Redis): Promise<number> {
  const [key] = await r.keys(`${cl.prefix}:*:inflight`);
  return key === undefined ? 0 : r.zcard(key);
}

describe('streamed answers on replicas', () => {
  it('free their board after the first post, and their entry is acknowledged only when they end (kill -9 and takeover: once)', async () => {
    const cl = await cluster({ requests: 1_000_000, extra: EXTRA });
    c = cl;
    redis = new Redis(cl.redis.url);
    const r = redis;
    const first = cl.start({ REPLICA_STREAM_HOLD: '1' });
    await first.started();
    const alice = cl.platform.person('alice');

    const asked = await alice.say('stream 0');
    await first.waitFor((l) => l.msg === 'fixture stream holding' && l.to === asked.id);
    // The board's next message is answered while the stream is open...
    const next = await alice.say('m while streaming');
    const echo = await cl.platform.bot.nextMessage({ replyTo: next }, { timeoutMs: 30_000 });
    expect(echo.content).toBe('echo m while streaming');
    // ...and acknowledged, while the stream's own entry is not.
    await until(async () => (await unacknowledged(cl, r)) === 1, 'only the stream left unacknowledged', {
      timeoutMs: 30_000,
      report: () => cl.report(),
    });

    await first.kill();
    const second = cl.start();
    await second.started();
    await second.waitFor((l) => l.msg === 'fixture streamed' && l.to === asked.id, 60_000);
    await until(async () => (await unacknowledged(cl, r)) === 0, 'every entry acknowledged', {
      timeoutMs: 30_000,
      report: () => cl.report(),
    });
    expect((await answersTo(cl, asked)).map((m) => m.content?.trim())).toEqual([STREAMED]);
    expect((await answersTo(cl, next)).map((m) => m.content)).toEqual(['echo m while streaming']);
  }, 180_000);

  it('stop writing on a replica paused (SIGSTOP) past its lease: every edit after the takeover is the new owner’s, one answer', async () => {
    const cl = await cluster({ requests: 1_000_000, extra: EXTRA });
    c = cl;
    const all = [cl.start(), cl.start()];
    for (const replica of all) await replica.started();
    const asked = await cl.platform.person('alice').say('stream 1');

    // Paused a few pieces in, with edits already made.
    const streaming = (replica: ReplicaProcess) =>
      replica
        .waitFor((l) => l.msg === 'fixture stream piece' && l.to === asked.id && Number(l.i) >= 5, 30_000)
        .then(() => replica);
    const paused = await Promise.race(all.map(streaming));
    const owner = all.find((replica) => replica !== paused) as ReplicaProcess;
    await paused.signal('SIGSTOP');
    // Its lease expires; the other replica takes the partition over and runs the event again, to its end.
    await owner.waitFor((l) => l.msg === 'fixture streamed' && l.to === asked.id, 60_000);
    await paused.signal('SIGCONT');
    await paused.waitFor(
      (l) => typeof l.msg === 'string' && l.msg.startsWith('streamed answer stopped writing'),
      30_000,
    );

    const [answer, ...more] = await answersTo(cl, asked);
    expect(more).toEqual([]);
    expect(answer?.content?.trim()).toBe(STREAMED);
    // The emulator's record of the answer's edits: once the new owner's run wrote, no other run did.
    const why = await cl.platform.control.why(answer?.board_id ?? '', answer?.id ?? '');
    const runs = why.edits.map((e) => e.request_id);
    const taken = runs.findIndex((id) => id !== runs[0]);
    expect(taken).toBeGreaterThan(0);
    expect(new Set(runs.slice(taken)).size).toBe(1);
    expect(new Set(runs).size).toBe(2);
    expect(why.edits.at(-1)?.content?.trim()).toBe(STREAMED);
  }, 180_000);
});
