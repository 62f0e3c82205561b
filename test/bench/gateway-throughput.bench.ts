import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createEmulator, type Emulator } from '@boardbot/emulator';
import { GatewayClient } from '@boardbot/gateway';
import { EventSource } from 'eventsource';
import { fetch } from 'undici';
import { afterAll, beforeAll, it } from 'vitest';
import { percentile } from './lib/measure.js';
import { type BenchRow, record } from './lib/record.js';

// GatewayClient against a bare `eventsource` listener on the same stream, in the same run, with the
// same undici fetch. The bare listener JSON-parses each event's data (what any useful consumer does);
// GatewayClient also validates each payload against its protocol schema, de-duplicates by id, feeds
// the watchdog, and delivers to a typed listener.

const TOKEN = 'bench-token';
const ROUNDS = 15;

type Subject = 'GatewayClient' | 'bare eventsource';

/**
 * Opens one consumer: `ready` resolves when its stream is live, `done` with the time its `count`-th
 * `message.create` arrived.
 */
function consume(
  subject: Subject,
  baseUrl: string,
  count: number,
  lastEventId: string | undefined,
  onEvent?: (id: string) => void,
): { ready: Promise<unknown>; done: Promise<number>; close: () => Promise<void> } {
  let seen = 0;
  let finish: (t: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const hit = (id: string) => {
    onEvent?.(id);
    if (++seen === count) finish(performance.now());
  };
  if (subject === 'GatewayClient') {
    const gw = new GatewayClient({ token: TOKEN, baseUrl, lastEventId, maxBufferedEvents: 1_000 });
    gw.on('message.create', (_e, meta) => hit(meta.id));
    return { ready: gw.connect(), done, close: () => gw.close() };
  }
  const headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` };
  if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
  const es = new EventSource(`${baseUrl}/gateway`, {
    fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, ...headers } }),
  });
  es.addEventListener('message.create', (e) => {
    JSON.parse(e.data as string);
    hit(e.lastEventId);
  });
  const ready = new Promise((resolve) => es.addEventListener('ready', resolve, { once: true }));
  return {
    ready,
    done,
    close: async () => es.close(),
  };
}

const median = (xs: number[]) => percentile(xs, 50);

/** Records rows for the final table, and prints them too (several bench runs may share the table file). */
function keep(...rows: BenchRow[]): void {
  record(...rows);
  for (const r of rows) {
    const ratio = r.ratio === undefined ? '' : ` (${r.ratio.toFixed(2)}x)`;
    console.log(`${r.bench} | ${r.subject} | ${r.value.toFixed(2)} ${r.unit}${ratio}${r.note ? ` | ${r.note}` : ''}`);
  }
}

interface Figures {
  /** Events per second, wall clock (median of the rounds). */
  rate: Record<Subject, number>;
  /** Events per second of the best round: the least disturbed by other work on the machine. */
  best: Record<Subject, number>;
  /** Process CPU (client and server share the process) per event, in microseconds. */
  cpu: Record<Subject, number>;
}

async function throughput(baseUrl: string, count: number, lastEventId: string | undefined): Promise<Figures> {
  const rates: Record<Subject, number[]> = { GatewayClient: [], 'bare eventsource': [] };
  const cpus: Record<Subject, number[]> = { GatewayClient: [], 'bare eventsource': [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which subject goes first, so neither always gets the warmer process.
    const order: Subject[] =
      round % 2 === 0 ? ['bare eventsource', 'GatewayClient'] : ['GatewayClient', 'bare eventsource'];
    for (const subject of order) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      const c = consume(subject, baseUrl, count, lastEventId);
      const end = await c.done;
      const used = process.cpuUsage(cpu);
      await c.close();
      rates[subject].push((count * 1000) / (end - start));
      cpus[subject].push((used.user + used.system) / count);
    }
  }
  return {
    rate: { GatewayClient: median(rates.GatewayClient), 'bare eventsource': median(rates['bare eventsource']) },
    best: {
      GatewayClient: Math.max(...rates.GatewayClient),
      'bare eventsource': Math.max(...rates['bare eventsource']),
    },
    cpu: { GatewayClient: median(cpus.GatewayClient), 'bare eventsource': median(cpus['bare eventsource']) },
  };
}

function recordFigures(bench: string, figures: Figures, note: string): void {
  const base = 'bare eventsource + JSON.parse (baseline)';
  keep(
    { bench, subject: base, value: figures.rate['bare eventsource'], unit: 'events/s', ratio: 1 },
    {
      bench,
      subject: 'GatewayClient',
      value: figures.rate.GatewayClient,
      unit: 'events/s',
      ratio: figures.rate.GatewayClient / figures.rate['bare eventsource'],
      note,
    },
    {
      bench: `${bench}, best round`,
      subject: base,
      value: figures.best['bare eventsource'],
      unit: 'events/s',
      ratio: 1,
    },
    {
      bench: `${bench}, best round`,
      subject: 'GatewayClient',
      value: figures.best.GatewayClient,
      unit: 'events/s',
      ratio: figures.best.GatewayClient / figures.best['bare eventsource'],
    },
    { bench: `${bench}, CPU`, subject: base, value: figures.cpu['bare eventsource'], unit: 'µs CPU/event', ratio: 1 },
    {
      bench: `${bench}, CPU`,
      subject: 'GatewayClient',
      value: figures.cpu.GatewayClient,
      unit: 'µs CPU/event',
      // As for throughput, higher is better: baseline CPU / this CPU.
      ratio: figures.cpu['bare eventsource'] / figures.cpu.GatewayClient,
      note: 'client + server in one process; ratio = baseline CPU / this CPU',
    },
  );
}

// A stream with no server cost: the frames are rendered once and written as fast as the socket
// takes them, so the figure is the client's own ceiling.
async function prerenderedServer(frames: Buffer): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const open = new Set<ServerResponse>();
  const server = createServer((_req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    let at = 0;
    const pump = () => {
      while (at < frames.length) {
        const slice = frames.subarray(at, at + 64 * 1024);
        at += slice.length;
        if (!res.write(slice)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    close: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let emu: Emulator;
let apiUrl = '';
let boardId = '';
let userId = '';

beforeAll(async () => {
  emu = await createEmulator({ db: ':memory:', seed: true, devToken: TOKEN, logger: false });
  apiUrl = (await emu.listen({ host: '127.0.0.1', port: 0 })).apiUrl;
  const state = (
    await emu.app.inject({ url: '/_emulator/v1/state', headers: { authorization: `Bearer ${emu.adminKey}` } })
  ).json();
  boardId = state.boards.find((b: { name: string }) => b.name === 'general').id;
  userId = state.users.find((u: { username: string }) => u.username === 'alice').id;
});

afterAll(async () => {
  await emu.close();
});

async function post(content: string): Promise<void> {
  const res = await emu.app.inject({
    method: 'POST',
    url: `/_emulator/v1/boards/${boardId}/messages`,
    headers: { authorization: `Bearer ${emu.adminKey}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ user_id: userId, content }),
  });
  if (res.statusCode !== 200) throw new Error(`post answered ${res.statusCode}: ${res.body}`);
}

it('gateway: events per second from a pre-rendered stream (client-bound)', async () => {
  const count = 20_000;
  const app = {
    id: '0196a8f0-0000-7000-8000-000000000004',
    name: 'dev-bot',
    description: null,
    bot_user_id: '0196a8f0-0000-7000-8000-000000000003',
    created_at: '2026-11-21T10:00:00.000Z',
  };
  const ready = { type: 'ready', app, board_ids: [], resumed: false };
  const parts = [`retry: 1000\n\nid: 0\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`];
  for (let i = 1; i <= count; i++) {
    const message = {
      id: `0196a8f0-0000-7000-8000-${i.toString(16).padStart(12, '0')}`,
      board_id: '0196a8f0-0000-7000-8000-000000000001',
      author: '0196a8f0-0000-7000-8000-000000000002',
      kind: 'default',
      content: `message number ${i} with a little text`,
      media: null,
      embeds: null,
      webhook_name: null,
      reply_to: null,
      seq: i,
      created_at: '2026-11-21T10:00:00.000Z',
      edited_at: null,
      deleted_at: null,
      interaction: null,
    };
    parts.push(`id: ${i}\nevent: message.create\ndata: ${JSON.stringify({ type: 'message.create', message })}\n\n`);
  }
  const server = await prerenderedServer(Buffer.from(parts.join('')));
  try {
    recordFigures(
      'gateway: pre-rendered stream',
      await throughput(server.baseUrl, count, undefined),
      `${count} events, median of ${ROUNDS}`,
    );
  } finally {
    await server.close();
  }
});

it('gateway: events per second replayed by the emulator', async () => {
  const count = 10_000; // what the emulator retains per app
  for (let i = 0; i < count; i++) await post(`replayed message ${i}`);
  // Last-Event-ID 0 asks for the whole retained log: a replay as fast as the emulator can read it.
  recordFigures(
    'gateway: emulator replay',
    await throughput(apiUrl, count, '0'),
    `${count} events, median of ${ROUNDS}`,
  );
});

it("gateway: latency from the emulator's write to the listener", async () => {
  const samples = 200;
  // The emulator's hub writes the frames of a commit to every open stream of the app: time that moment.
  const hub = emu.platform.gateway;
  const push = hub.push.bind(hub);
  let writtenAt = 0;
  hub.push = (key: string, frames: Uint8Array) => {
    writtenAt = performance.now();
    push(key, frames);
  };
  const latencies: Record<Subject, number[]> = { GatewayClient: [], 'bare eventsource': [] };
  try {
    for (let round = 0; round < 4; round++) {
      const subject: Subject = round % 2 === 0 ? 'bare eventsource' : 'GatewayClient';
      let arrived: () => void = () => {};
      const c = consume(subject, apiUrl, Number.POSITIVE_INFINITY, undefined, () => {
        latencies[subject].push(performance.now() - writtenAt);
        arrived();
      });
      // Wait for the stream to be live, then post once and wait for that event.
      await c.ready;
      const warm = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      await post('warm-up');
      await warm;
      latencies[subject].pop();
      for (let i = 0; i < samples / 2; i++) {
        const got = new Promise<void>((resolve) => {
          arrived = resolve;
        });
        await post(`latency ${i}`);
        await got;
      }
      await c.close();
    }
  } finally {
    hub.push = push;
  }
  for (const p of [50, 99]) {
    const bare = percentile(latencies['bare eventsource'], p);
    const ours = percentile(latencies.GatewayClient, p);
    record(
      {
        bench: `gateway: latency p${p}`,
        subject: 'bare eventsource + JSON.parse (baseline)',
        value: bare,
        unit: 'ms',
        ratio: 1,
      },
      {
        bench: `gateway: latency p${p}`,
        subject: 'GatewayClient',
        value: ours,
        unit: 'ms',
        ratio: ours / bare,
        note: `${samples} samples each`,
      },
    );
  }
});
