import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { type MessageContext, OnMessage } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { redis } from '@boardbot/redis';
import { type RedisServer, startRedisServer } from '@boardbot/test-support';
import type { Person } from '@boardbot/testing';
import { Redis } from 'ioredis';
import { it } from 'vitest';
import { cluster } from '../scale/support/cluster.js';
import { buildReplicaBot } from '../scale/support/replica-process.js';
import { buildEmulator, serveInChild, stopChildren } from './lib/child-server.js';
import { inProcessRig, median } from './lib/in-process-bot.js';
import { record } from './lib/record.js';
import { lateLegs, latencyMonitor, redisTimeMs } from './lib/redis-latency.js';

// Replicas on Redis: how throughput grows with replicas when handlers wait on I/O, and what the Redis
// hop adds to the time from an event's arrival to its handler, beside what a bare round trip and a write
// of the same size to the same Redis take, on the same loop, in the same rounds (the floors this machine
// sets), with the append-only file on the disk, on a tmpfs, and off, and what Redis's own latency
// monitor saw meanwhile.

const HANDLER_MS = 20;
const CONCURRENCY = 4;
/**
 * How many boards the events are spread over: a few dozen, where the hash leaves some replica more
 * than its share (see `spreadAllows`), and a few hundred, where it evens out.
 */
const BOARD_COUNTS = [64, 256] as const;
const EVENTS = 3000;

/**
 * The ratio to one replica that `loads` (each replica's events) allow replicas that each run at one
 * replica's rate, over the same window as the bench's: boards go to partitions by a hash of their
 * ids, and partitions to replicas by count, so with a few dozen boards some replica gets more than
 * its share, and the window ends while it is still working alone. This is the bound a run's spread
 * sets, apart from what the replicas themselves cost.
 */
function spreadAllows(loads: readonly number[]): number {
  const times = loads.flatMap((events) => Array.from({ length: events }, (_, k) => k + 1)).sort((a, b) => a - b);
  const from = times[Math.floor(times.length * 0.1)] as number;
  const to = times[Math.floor(times.length * 0.9)] as number;
  return (times.length * 0.8) / Math.max(1, to - from);
}

/**
 * Events/s that `n` replica processes handle from a backlog spread over `boardCount` boards, and how many of
 * the events each replica handled.
 */
async function throughput(n: number, boardCount: number): Promise<{ rate: number; loads: number[] }> {
  const handledAt: number[] = [];
  const handledBy = new Map<unknown, number>();
  const c = await cluster({
    requests: 1_000_000,
    extra: {
      REPLICA_SILENT: '1',
      REPLICA_HANDLER_MS: String(HANDLER_MS),
      REPLICA_CONCURRENCY: String(CONCURRENCY),
      // Long enough for the replicas to be paused while the backlog is posted, without losing their leases.
      REPLICA_LEASE_MS: '15000',
    },
    onLine: (line, replica) => {
      if (line.msg !== 'fixture handled') return;
      handledAt.push(line.at as number);
      handledBy.set(replica, (handledBy.get(replica) ?? 0) + 1);
    },
  });
  try {
    const boards = ['general', 'random'];
    for (let i = boards.length; i < boardCount; i++) boards.push((await c.platform.createBoard(`b${i}`)).name);
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
          await (people[i % 2] as Person).say(`m ${i}`, { board: boards[i % boardCount] as string });
        }
      }),
    );
    for (const r of replicas) await r.signal('SIGCONT');
    while (handledAt.length < EVENTS) await new Promise((resolve) => setTimeout(resolve, 100));
    const sorted = [...handledAt].sort((a, b) => a - b);
    const from = sorted[Math.floor(EVENTS * 0.1)] as number;
    const to = sorted[Math.floor(EVENTS * 0.9)] as number;
    for (const r of replicas) await r.stop();
    return { rate: (EVENTS * 0.8 * 1000) / Math.max(1, to - from), loads: [...handledBy.values()] };
  } finally {
    await c.close();
  }
}

it('grows throughput with replicas when handlers wait on I/O', async () => {
  buildReplicaBot();
  for (const boardCount of BOARD_COUNTS) {
    const runs = new Map<number, { rate: number; loads: number[] }>();
    for (const n of [1, 2, 4]) runs.set(n, await throughput(n, boardCount));
    const one = (runs.get(1) as { rate: number }).rate;
    record(
      ...[...runs].map(([n, { rate, loads }]) => {
        // What the boards' spread over the replicas allowed this run, and how much of it the replicas got.
        const allows = spreadAllows(loads);
        const spread = `events per replica ${loads.join('/')}: the spread allows ${allows.toFixed(2)}×, got ${((rate / one / allows) * 100).toFixed(0)}% of it`;
        return {
          bench: 'redis: replicas',
          subject: `${n} replica${n > 1 ? 's' : ''} (concurrency ${CONCURRENCY}, ${HANDLER_MS} ms handlers, ${boardCount} boards)`,
          value: rate,
          unit: 'events/s',
          ratio: rate / one,
          note:
            n === 1 ? `ceiling ${(CONCURRENCY * 1000) / HANDLER_MS}/s` : `${spread}${n === 4 ? '; target ≥ 3.5×' : ''}`,
        };
      }),
    );
  }
}, 600_000);

const sentAt = new Map<string, number>();
/** Each timed event of a round: when it was emitted, and how long it took to reach its handler. */
let latencies: { at: number; ms: number }[] = [];

const took = (at: number) => latencies.push({ at, ms: performance.now() - at });

class Timed {
  @OnMessage(/^t /)
  timed(ctx: MessageContext) {
    took(sentAt.get(ctx.message.id) as number);
    // Forgotten once handled: a map that grew for the whole run would make the collections the bench's own.
    sentAt.delete(ctx.message.id);
  }
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] as number;

/** Garbage collections seen in this process (start and duration, ms; whether it was a full mark-compact). */
const collections: { start: number; ms: number; major: boolean }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    collections.push({
      start: e.startTime,
      ms: e.duration,
      // Node's gc entries carry their kind in `detail`, which the PerformanceEntry type does not declare.
      major: (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR,
    });
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
  /** Collections during the round, per 1,000 events (allocation on the path makes them more frequent). */
  gcs: number;
  /** The longest collection during the round, ms. */
  pause: number;
  /** Full mark-compacts during the round, per 1,000 events (the rest are scavenges of the young generation). */
  majors: number;
  /** Of the round's slowest 1% (floor writes only): late mostly on the way to Redis, and on the way back. */
  legs?: { there: number; back: number };
  /** This process's CPU time per event, µs (the bot's own work on the path, beside what it waits for). */
  cpu: number;
  /** What this process allocated on its heap per event, KB (what the collections above have to sweep). */
  kb: number;
  /** The CPU pressure during the round: the share of the time some runnable task waited for a core. */
  waited: number;
}

/**
 * Starts counting the bytes this process allocates on its heap; the function returned stops and gives
 * them: the heap's growth plus what each collection in between freed (V8 keeps no running total).
 */
function allocations(): () => number {
  const profiler = new GCProfiler();
  profiler.start();
  const from = getHeapStatistics().used_heap_size;
  return () => {
    let freed = 0;
    for (const gc of profiler.stop().statistics)
      freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    return getHeapStatistics().used_heap_size - from + freed;
  };
}

/**
 * `BOARDBOT_BENCH_HEAP_PROF=<file>`: V8's sampling heap profile of the rounds through Redis with no
 * append-only file, collected objects included (what the scavenges sweep), one JSON profile a line
 * per round, to tell whose allocations the hop's KB per event are.
 */
const heapProfile = process.env.BOARDBOT_BENCH_HEAP_PROF;
const HEAP_PROFILED = 'through no aof';

async function sampleHeap<T>(work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  const result = await work();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  appendFileSync(heapProfile as string, `${JSON.stringify(profile)}\n`);
  return result;
}

/** Events a round times; its p99 is its 6th slowest. */
const EVENTS_PER_ROUND = 500;
const ROUNDS = 9;

/** How each Redis persists: as docs/scaling.md recommends (AOF on the disk), AOF on a tmpfs, no AOF. */
const PERSISTENCE = [
  { name: 'aof on disk', options: {} },
  { name: 'aof in memory', options: { parent: '/dev/shm' } },
  { name: 'no aof', options: { appendonly: false } },
] as const;

/** Microseconds some task waited for a CPU since boot (Linux PSI), or undefined where there is none. */
const cpuWaited = () => {
  try {
    return Number(/total=(\d+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1]);
  } catch {
    return Number.NaN;
  }
};

it('adds little latency between an event and its handler through Redis', async () => {
  buildEmulator();
  const kinds = PERSISTENCE.filter((k) => !('parent' in k.options) || existsSync(k.options.parent));
  const servers = await Promise.all(kinds.map((k) => startRedisServer(k.options)));
  const emulator = await serveInChild(EMULATOR);
  const rig = await inProcessRig({ apiUrl: `${emulator.url}/api/v1` });
  const base = { handlers: [Timed], logger: false as const, handleSignals: false as const };
  const direct = await rig.bot({ ...base, position: false });
  const scaled: (typeof direct)[] = [];
  for (const server of servers)
    scaled.push(await rig.bot({ ...base, scale: redis({ url: server.url, keyPrefix: 'bench' }) }));
  // The same hop with the replica's periodic work pushed out of the rounds, on the first server: the
  // consumer's read of every partition each `blockMs` (its safety net), and, beside it, the
  // heartbeats (each `leaseMs / 3`) and their sweeps; what the tail loses then is theirs.
  const [first] = servers as [RedisServer];
  const unread = await rig.bot({ ...base, scale: redis({ url: first.url, keyPrefix: 'unread', blockMs: 60_000 }) });
  const quiet = await rig.bot({
    ...base,
    scale: redis({ url: first.url, keyPrefix: 'quiet', blockMs: 60_000, leaseMs: 600_000 }),
  });
  // The floors, on the same redis-servers: one bare round trip (PING), and one write of an event's
  // size through a script (XADD by EVALSHA), which pays what the hop's append pays to persist; it
  // returns Redis's clock, so that a slow trip can be told late on the way there or on the way back.
  // Not auto-pipelined: a command is written at once, as the hop's append is (`sendNow`).
  const floors = servers.map((server) => new Redis(server.url));
  const monitors = await Promise.all(floors.map((f) => latencyMonitor(f)));
  const write = "return { redis.call('XADD', KEYS[1], '*', 'e', ARGV[1], 'r', ARGV[2]), redis.call('TIME') }";
  const shas = await Promise.all(floors.map(async (f) => String(await f.script('LOAD', write))));
  const entry = JSON.stringify({ type: 'message.create', message: rig.message(rig.boardIds[0], 't x') });
  let trips: { there: number; back: number; ms: number }[] = [];
  const roundTrip = async (at: number) => {
    await (floors[0] as Redis).ping();
    took(at);
  };
  // `counted`: the same write, then the Redis pattern of the hop around its handler without the bot: a
  // count written before the handler (as the run count is), and one more write after it (as the
  // acknowledgement is), so that what those writes cost can be told from the rest of the bot's work.
  const writeTrip = async (s: number, at: number, counted: boolean) => {
    const floor = floors[s] as Redis;
    const [id, time] = (await floor.evalsha(shas[s] as string, 1, 'floor', entry, 'lease')) as [
      string,
      [string, string],
    ];
    if (counted) {
      void floor.hincrby('floor:runs', id, 1);
      setImmediate(() => void floor.hdel('floor:runs', id));
    }
    took(at);
    const ran = redisTimeMs(time) - performance.timeOrigin;
    trips.push({ there: ran - at, back: performance.now() - ran, ms: performance.now() - at });
  };
  type Target = { bot: typeof direct } | { ping: true } | { write: number; counted?: boolean };
  let nextId = 1;
  const round = async (target: Target, n: number): Promise<Round> => {
    latencies = [];
    trips = [];
    const from = performance.now();
    const waited = cpuWaited();
    const cpu = process.cpuUsage();
    const allocated = allocations();
    for (let i = 0; i < n; i++) {
      const at = performance.now();
      if ('ping' in target) void roundTrip(at);
      else if ('write' in target) void writeTrip(target.write, at, target.counted === true);
      else {
        const message: Message = rig.message(rig.boardIds[i % rig.boardIds.length], 't x');
        sentAt.set(message.id, at);
        target.bot.gateway.emit('dispatch', {
          name: 'message.create',
          id: String(nextId++),
          data: { type: 'message.create', message },
        });
      }
      // Paced, so that the figure is the hop and not a queue.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    while (latencies.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
    const kb = allocated() / 1024 / n;
    const ms = latencies.map((l) => l.ms);
    const p99 = percentile(ms, 0.99);
    const slowest = latencies.filter((l) => l.ms >= p99);
    const collected = slowest.filter((l) => collections.some((c) => c.start + c.ms >= l.at && c.start <= l.at + l.ms));
    const during = collections.filter((c) => c.start >= from);
    return {
      p50: percentile(ms, 0.5),
      p99,
      gc: collected.length / slowest.length,
      gcs: (during.length * 1000) / n,
      pause: Math.max(0, ...during.map((c) => c.ms)),
      majors: (during.filter((c) => c.major).length * 1000) / n,
      cpu: (({ user, system }) => (user + system) / n)(process.cpuUsage(cpu)),
      kb,
      waited: (cpuWaited() - waited) / 1000 / (performance.now() - from),
      ...('write' in target ? { legs: lateLegs(trips, slowest.length) } : {}),
    };
  };
  const targets: [string, Target][] = [
    ['without', { bot: direct }],
    ['ping', { ping: true }],
    ...kinds.flatMap((k, s): [string, Target][] => [
      [`through ${k.name}`, { bot: scaled[s] as typeof direct }],
      [`write ${k.name}`, { write: s }],
    ]),
    ['counted', { write: 0, counted: true }],
    ['unread', { bot: unread }],
    ['quiet', { bot: quiet }],
  ];
  for (const [, target] of targets) await round(target, 200);
  await Promise.all(monitors.map((m) => m.reset()));
  const rounds = new Map(targets.map(([name]) => [name, [] as Round[]]));
  // Interleaved: every target once per round, in an order that turns, so none always follows another.
  for (let r = 0; r < ROUNDS; r++) {
    for (let t = 0; t < targets.length; t++) {
      const [name, target] = targets[(t + r) % targets.length] as [string, Target];
      const timed = () => round(target, EVENTS_PER_ROUND);
      rounds.get(name)?.push(await (heapProfile && name === HEAP_PROFILED ? sampleHeap(timed) : timed()));
    }
  }
  const spikes = await Promise.all(monitors.map((m) => m.spikes()));
  for (const f of floors) f.disconnect();
  await direct.bot.stop();
  // Together: each stop releases its replica's partitions and leases, and they need not wait in turn.
  await Promise.all([...scaled, unread, quiet].map((s) => s.bot.stop()));
  await rig.close();
  stopChildren();
  for (const server of servers) await server.close();
  const m = (xs: Round[], k: 'p50' | 'p99' | 'gc' | 'gcs' | 'pause' | 'majors' | 'cpu' | 'kb' | 'waited') =>
    median(xs.map((x) => x[k]));
  const of = (name: string) => rounds.get(name) as Round[];
  const spread = (xs: Round[]) =>
    `${Math.min(...xs.map((x) => x.p99)).toFixed(1)}–${Math.max(...xs.map((x) => x.p99)).toFixed(1)}`;
  const gc = (xs: Round[]) =>
    `${Math.round(m(xs, 'gc') * 100)}% of the slowest 1% overlapped a GC; ${m(xs, 'gcs').toFixed(1)} GCs per 1,000 events (${m(xs, 'majors').toFixed(1)} mark-compacts), the longest ${m(xs, 'pause').toFixed(1)} ms`;
  // The machine's share: the median p99 of the rounds with less CPU pressure than the median round, and of the rest.
  const calm = (xs: Round[]) => {
    const line = m(xs, 'waited');
    const p = (ys: Round[]) => (ys.length ? m(ys, 'p99').toFixed(2) : '–');
    return `p99 ${p(xs.filter((x) => x.waited < line))} ms in the calmer rounds, ${p(xs.filter((x) => x.waited >= line))} ms in the busier (CPU waited ${Math.round(line * 100)}% at the median)`;
  };
  const without = of('without');
  const bench = 'redis: hop';
  const note = `medians of ${ROUNDS} interleaved rounds of ${EVENTS_PER_ROUND} events`;
  record(
    {
      bench,
      subject: 'event to handler, one process (p50)',
      value: m(without, 'p50'),
      unit: 'ms',
      note: `${m(without, 'cpu').toFixed(0)} µs of this process's CPU and ${m(without, 'kb').toFixed(1)} KB allocated per event`,
    },
    {
      bench,
      subject: 'event to handler, one process (p99)',
      value: m(without, 'p99'),
      unit: 'ms',
      note: `rounds ${spread(without)} ms; ${gc(without)}; ${note}`,
    },
    { bench, subject: 'one bare round trip, PING, aof on disk (p50)', value: m(of('ping'), 'p50'), unit: 'ms' },
    {
      bench,
      subject: 'one bare round trip, PING, aof on disk (p99)',
      value: m(of('ping'), 'p99'),
      unit: 'ms',
      note: `rounds ${spread(of('ping'))} ms; ${gc(of('ping'))}`,
    },
  );
  const counted = of('counted');
  record(
    {
      bench,
      subject: `write floor with a run count, ${kinds[0]?.name} (p50)`,
      value: m(counted, 'p50'),
      unit: 'ms',
      note: `the write floor, then HINCRBY written before the handler and HDEL after it, as the hop's run count and acknowledgement; ${m(counted, 'cpu').toFixed(0)} µs of this process's CPU and ${m(counted, 'kb').toFixed(1)} KB allocated per event`,
    },
    {
      bench,
      subject: `write floor with a run count, ${kinds[0]?.name} (p99)`,
      value: m(counted, 'p99'),
      unit: 'ms',
      note: `rounds ${spread(counted)} ms; ${gc(counted)}; ${calm(counted)}`,
    },
  );
  for (const [name, subject] of [
    ['unread', `through Redis, ${kinds[0]?.name}, no periodic read (blockMs 60 s)`],
    ['quiet', `through Redis, ${kinds[0]?.name}, no periodic read nor heartbeat (blockMs 60 s, leaseMs 600 s)`],
  ] as const) {
    const xs = of(name);
    record(
      { bench, subject: `${subject} (p50)`, value: m(xs, 'p50'), unit: 'ms' },
      {
        bench,
        subject: `${subject} (p99)`,
        value: m(xs, 'p99'),
        unit: 'ms',
        note: `+${(m(xs, 'p99') - m(without, 'p99')).toFixed(2)} ms; rounds ${spread(xs)} ms; ${gc(xs)}; ${calm(xs)}`,
      },
    );
  }
  kinds.forEach((k, s) => {
    const through = of(`through ${k.name}`);
    const writes = of(`write ${k.name}`);
    const added = (key: 'p50' | 'p99') => m(through, key) - m(without, key);
    const legs = writes.reduce(
      (sum, w) => ({ there: sum.there + (w.legs?.there ?? 0), back: sum.back + (w.legs?.back ?? 0) }),
      { there: 0, back: 0 },
    );
    const seen =
      (spikes[s] ?? [])
        .filter((x) => !x.event.endsWith('-alone'))
        .map((x) => `${x.event} ${x.count}× (${x.real}× ≥ 2 ms, max ${x.maxMs} ms)`)
        .join(', ') || 'none';
    record(
      {
        bench,
        subject: `through Redis, ${k.name} (p50)`,
        value: m(through, 'p50'),
        unit: 'ms',
        note: `+${added('p50').toFixed(2)} ms; ${(added('p50') - m(writes, 'p50')).toFixed(2)} ms above the write floor; ${m(through, 'cpu').toFixed(0)} µs of this process's CPU and ${m(through, 'kb').toFixed(1)} KB allocated per event (the write floor ${m(writes, 'cpu').toFixed(0)} µs, ${m(writes, 'kb').toFixed(1)} KB)`,
      },
      {
        bench,
        subject: `through Redis, ${k.name} (p99)`,
        value: m(through, 'p99'),
        unit: 'ms',
        note: `+${added('p99').toFixed(2)} ms (target under 2 ms added); ${(added('p99') - m(writes, 'p99')).toFixed(2)} ms above the write floor; rounds ${spread(through)} ms; ${gc(through)}; ${calm(through)}`,
      },
      { bench, subject: `write floor, EVALSHA XADD, ${k.name} (p50)`, value: m(writes, 'p50'), unit: 'ms' },
      {
        bench,
        subject: `write floor, EVALSHA XADD, ${k.name} (p99)`,
        value: m(writes, 'p99'),
        unit: 'ms',
        note: `rounds ${spread(writes)} ms; of the slowest 1% of all rounds, ${legs.there} late before the script ran, ${legs.back} after; Redis latency monitor (seconds with a spike of 1 ms or more, over all its rounds): ${seen}; ${calm(writes)}`,
      },
    );
  });
}, 600_000);
