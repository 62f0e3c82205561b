import { createHash } from 'node:crypto';
import { PerformanceObserver } from 'node:perf_hooks';
import { type MessageContext, OnMessage } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { redis } from '@boardbot/redis';
import { startRedisServer } from '@boardbot/test-support';
import type { Person } from '@boardbot/testing';
import { Redis } from 'ioredis';
import { it } from 'vitest';
import { cluster } from '../scale/support/cluster.js';
import { buildReplicaBot } from '../scale/support/replica-process.js';
import { buildEmulator, serveInChild, stopChildren } from './lib/child-server.js';
import { inProcessRig, median } from './lib/in-process-bot.js';
import { type Placement, placer } from './lib/placement.js';
import { record } from './lib/record.js';

// Replicas on Redis: how throughput grows with replicas when handlers wait on I/O, and what the Redis
// hop adds to the time from an event's arrival to its handler (beside what a bare round trip to the
// same Redis takes, on the same loop, in the same rounds: the floor this machine sets), with Redis and
// this process sharing the cores, at a higher priority, and at a higher priority each on a core of its own.

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
/** Each timed event of a round: when it was emitted, and how long it took to reach its handler. */
let latencies: { at: number; ms: number }[] = [];

const took = (at: number) => latencies.push({ at, ms: performance.now() - at });

class Timed {
  @OnMessage(/^t /)
  timed(ctx: MessageContext) {
    took(sentAt.get(ctx.message.id) as number);
  }
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] as number;

/** Garbage collections seen in this process (start and duration, ms). */
const collections: { start: number; ms: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) collections.push({ start: e.startTime, ms: e.duration });
}).observe({ entryTypes: ['gc'] });

/** The emulator in a process of its own: it serves the bots' start, and takes nothing of this loop. */
const EMULATOR = `
  import { createEmulator } from './packages/emulator/dist/index.js';
  const emu = await createEmulator({ db: ':memory:', logger: false });
  const { url } = await emu.listen({ port: 0 });
  console.log(JSON.stringify({ url }));`;

/** A round's figures: the percentiles, and the share of its slowest events a collection overlapped. */
interface Round {
  p50: number;
  p99: number;
  gc: number;
}

it('adds little latency between an event and its handler through Redis', async () => {
  buildEmulator();
  const server = await startRedisServer();
  const emulator = await serveInChild(EMULATOR);
  const rig = await inProcessRig({ apiUrl: `${emulator.url}/api/v1` });
  const base = { handlers: [Timed], logger: false as const, handleSignals: false as const };
  const direct = await rig.bot({ ...base, position: false });
  const scaled = await rig.bot({ ...base, scale: redis({ url: server.url, keyPrefix: 'bench' }) });
  // The floor: one round trip to the same redis-server, as the hop makes (the append, which reads
  // the event along for this replica, the reader), and nothing else.
  const floor = new Redis(server.url, { enableAutoPipelining: true });
  const roundTrip = async (at: number) => {
    await floor.ping();
    took(at);
  };
  const info = String(await floor.info('server'));
  const places = placer(Number(/process_id:(\d+)/.exec(info)?.[1]));
  let nextId = 1;
  const round = async (target: typeof direct | 'floor', n: number): Promise<Round> => {
    latencies = [];
    for (let i = 0; i < n; i++) {
      const at = performance.now();
      if (target === 'floor') void roundTrip(at);
      else {
        const message: Message = rig.message(rig.boardIds[i % rig.boardIds.length], 't x');
        sentAt.set(message.id, at);
        target.gateway.emit('dispatch', {
          name: 'message.create',
          id: String(nextId++),
          data: { type: 'message.create', message },
        });
      }
      // Paced, so that the figure is the hop and not a queue.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    while (latencies.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
    const ms = latencies.map((l) => l.ms);
    const p99 = percentile(ms, 0.99);
    const slowest = latencies.filter((l) => l.ms >= p99);
    const collected = slowest.filter((l) => collections.some((c) => c.start + c.ms >= l.at && c.start <= l.at + l.ms));
    return { p50: percentile(ms, 0.5), p99, gc: collected.length / slowest.length };
  };
  await round(direct, 200);
  await round(scaled, 200);
  await round('floor', 200);
  const placements: Placement[] = places.available ? ['shared', 'first', 'apart'] : ['shared'];
  const rounds = new Map(
    placements.map((p) => [p, { without: [] as Round[], through: [] as Round[], floors: [] as Round[] }]),
  );
  for (let r = 0; r < 9; r++) {
    for (const placement of placements) {
      places.place(placement);
      const of = rounds.get(placement) as { without: Round[]; through: Round[]; floors: Round[] };
      of.without.push(await round(direct, 300));
      of.through.push(await round(scaled, 300));
      of.floors.push(await round('floor', 300));
    }
  }
  places.place('shared');
  floor.disconnect();
  await direct.bot.stop();
  await scaled.bot.stop();
  await rig.close();
  stopChildren();
  await server.close();
  const m = (xs: Round[], k: keyof Round) => median(xs.map((x) => x[k]));
  const spread = (xs: Round[]) =>
    `${Math.min(...xs.map((x) => x.p99)).toFixed(1)}–${Math.max(...xs.map((x) => x.p99)).toFixed(1)}`;
  const gc = (xs: Round[]) => `${Math.round(m(xs, 'gc') * 100)}% of the slowest 1% overlapped a GC`;
  for (const [placement, { without, through, floors }] of rounds) {
    const bench = placement === 'shared' ? 'redis: hop' : `redis: hop, ${placement}`;
    const added = (k: 'p50' | 'p99') => `+${(m(through, k) - m(without, k)).toFixed(2)} ms`;
    const overFloor = (k: 'p50' | 'p99') =>
      `${(m(through, k) - m(without, k) - m(floors, k)).toFixed(2)} ms above the floor`;
    record(
      { bench, subject: 'event to handler, one process (p50)', value: m(without, 'p50'), unit: 'ms' },
      {
        bench,
        subject: 'event to handler, one process (p99)',
        value: m(without, 'p99'),
        unit: 'ms',
        note: `rounds ${spread(without)} ms; ${gc(without)}${placement === 'shared' ? '' : `; ${places.note}`}`,
      },
      {
        bench,
        subject: 'event to handler through Redis (p50)',
        value: m(through, 'p50'),
        unit: 'ms',
        note: `${added('p50')}; ${overFloor('p50')}`,
      },
      {
        bench,
        subject: 'event to handler through Redis (p99)',
        value: m(through, 'p99'),
        unit: 'ms',
        note: `${added('p99')} (target under 2 ms added); ${overFloor('p99')}; rounds ${spread(through)} ms; ${gc(through)}; medians of 9 interleaved rounds`,
      },
      { bench, subject: 'one bare round trip to Redis (p50)', value: m(floors, 'p50'), unit: 'ms' },
      {
        bench,
        subject: 'one bare round trip to Redis (p99)',
        value: m(floors, 'p99'),
        unit: 'ms',
        note: `the floor of the hop on this machine; rounds ${spread(floors)} ms; ${gc(floors)}`,
      },
    );
  }
}, 300_000);
