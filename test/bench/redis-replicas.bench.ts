import { createHash } from 'node:crypto';
import { type MessageContext, OnMessage } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { redis } from '@boardbot/redis';
import { startRedisServer } from '@boardbot/test-support';
import type { Person } from '@boardbot/testing';
import { Redis } from 'ioredis';
import { it } from 'vitest';
import { cluster } from '../scale/support/cluster.js';
import { buildReplicaBot } from '../scale/support/replica-process.js';
import { inProcessRig, median } from './lib/in-process-bot.js';
import { record } from './lib/record.js';

// Replicas on Redis: how throughput grows with replicas when handlers wait on I/O, and what the Redis
// hop adds to the time from an event's arrival to its handler.

const HANDLER_MS = 20;
const CONCURRENCY = 4;
const BOARDS = 64;
const EVENTS = 3000;

/** Events/s that `n` replica processes handle from a backlog spread over 64 boards. */
async function throughput(n: number): Promise<number> {
  const handledAt: number[] = [];
  const c = await cluster({
    requests: 1_000_000,
    extra: {
      REPLICA_SILENT: '1',
      REPLICA_HANDLER_MS: String(HANDLER_MS),
      REPLICA_CONCURRENCY: String(CONCURRENCY),
      // Long enough for the replicas to be paused while the backlog is posted, without losing their leases.
      REPLICA_LEASE_MS: '15000',
    },
    onLine: (line) => {
      if (line.msg === 'fixture handled') handledAt.push(line.at as number);
    },
  });
  try {
    const boards = ['general', 'random'];
    for (let i = boards.length; i < BOARDS; i++) boards.push((await c.platform.createBoard(`b${i}`)).name);
    const replicas = Array.from({ length: n }, () => c.start());
    for (const r of replicas) await r.started();
    // Wait until the partitions are spread: each replica holds its share.
    const client = new Redis(c.redis.url);
    const tag = createHash('sha256').update(c.proxy.apiUrl).digest('hex').slice(0, 12);
    const base = `${c.prefix}:{${c.platform.bot.app.id}:${tag}}`;
    for (;;) {
      const owners = await Promise.all(Array.from({ length: 16 }, (_, p) => client.get(`${base}:p:${p}:lease`)));
      const counts = new Map<string, number>();
      for (const o of owners)
        if (o) counts.set(o.split(':')[1] as string, (counts.get(o.split(':')[1] as string) ?? 0) + 1);
      if (counts.size === n && [...counts.values()].every((k) => k >= Math.floor(16 / n))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    client.disconnect();
    const people: Person[] = [c.platform.person('alice'), c.platform.person('bob')];
    // The backlog is posted while the replicas are paused, so the figure is theirs, not the poster's.
    for (const r of replicas) await r.signal('SIGSTOP');
    await Promise.all(
      Array.from({ length: 32 }, async (_, w) => {
        for (let i = w; i < EVENTS; i += 32) {
          await (people[i % 2] as Person).say(`m ${i}`, { board: boards[i % BOARDS] as string });
        }
      }),
    );
    for (const r of replicas) await r.signal('SIGCONT');
    while (handledAt.length < EVENTS) await new Promise((resolve) => setTimeout(resolve, 100));
    const sorted = [...handledAt].sort((a, b) => a - b);
    const from = sorted[Math.floor(EVENTS * 0.1)] as number;
    const to = sorted[Math.floor(EVENTS * 0.9)] as number;
    for (const r of replicas) await r.stop();
    return (EVENTS * 0.8 * 1000) / Math.max(1, to - from);
  } finally {
    await c.close();
  }
}

it('grows throughput with replicas when handlers wait on I/O', async () => {
  buildReplicaBot();
  const rates: Record<number, number> = {};
  for (const n of [1, 2, 4]) rates[n] = await throughput(n);
  const one = rates[1] as number;
  record(
    ...[1, 2, 4].map((n) => ({
      bench: 'redis: replicas',
      subject: `${n} replica${n > 1 ? 's' : ''} (concurrency ${CONCURRENCY}, ${HANDLER_MS} ms handlers, ${BOARDS} boards)`,
      value: rates[n] as number,
      unit: 'events/s',
      ratio: (rates[n] as number) / one,
      note: n === 4 ? 'target ≥ 3.5×' : n === 1 ? `ceiling ${(CONCURRENCY * 1000) / HANDLER_MS}/s` : '',
    })),
  );
}, 600_000);

const sentAt = new Map<string, number>();
let latencies: number[] = [];

class Timed {
  @OnMessage(/^t /)
  timed(ctx: MessageContext) {
    latencies.push(performance.now() - (sentAt.get(ctx.message.id) as number));
  }
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] as number;

it('adds little latency between an event and its handler through Redis', async () => {
  const server = await startRedisServer();
  const rig = await inProcessRig();
  const base = { handlers: [Timed], logger: false as const, handleSignals: false as const };
  const direct = await rig.bot({ ...base, position: false });
  const scaled = await rig.bot({ ...base, scale: redis({ url: server.url, keyPrefix: 'bench' }) });
  let nextId = 1;
  const round = async (target: typeof direct, n: number) => {
    latencies = [];
    for (let i = 0; i < n; i++) {
      const message: Message = rig.message(rig.boardIds[i % rig.boardIds.length], 't x');
      sentAt.set(message.id, performance.now());
      target.gateway.emit('dispatch', {
        name: 'message.create',
        id: String(nextId++),
        data: { type: 'message.create', message },
      });
      // Paced, so that the figure is the hop and not a queue.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    while (latencies.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
    return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
  };
  await round(direct, 200);
  await round(scaled, 200);
  const without: { p50: number; p99: number }[] = [];
  const through: { p50: number; p99: number }[] = [];
  for (let r = 0; r < 7; r++) {
    without.push(await round(direct, 300));
    through.push(await round(scaled, 300));
  }
  await direct.bot.stop();
  await scaled.bot.stop();
  await rig.close();
  await server.close();
  const m = (xs: { p50: number; p99: number }[], k: 'p50' | 'p99') => median(xs.map((x) => x[k]));
  record(
    { bench: 'redis: hop', subject: 'event to handler, one process (p50)', value: m(without, 'p50'), unit: 'ms' },
    { bench: 'redis: hop', subject: 'event to handler, one process (p99)', value: m(without, 'p99'), unit: 'ms' },
    {
      bench: 'redis: hop',
      subject: 'event to handler through Redis (p50)',
      value: m(through, 'p50'),
      unit: 'ms',
      note: `+${(m(through, 'p50') - m(without, 'p50')).toFixed(2)} ms`,
    },
    {
      bench: 'redis: hop',
      subject: 'event to handler through Redis (p99)',
      value: m(through, 'p99'),
      unit: 'ms',
      note: `+${(m(through, 'p99') - m(without, 'p99')).toFixed(2)} ms; target under 2 ms added; medians of 7 interleaved rounds`,
    },
  );
}, 300_000);
