import { randomUUID } from 'node:crypto';
import { createEmulator } from '@boardbot/emulator';
import { RestClient } from '@boardbot/rest';
import { REST } from '@discordjs/rest';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, it } from 'vitest';
import { record } from './lib/record.js';

// Requests per second of RestClient against the emulator, side by side in the same run with raw
// `undici.request` (the ceiling: no queue, no retries, no checks) and with `@discordjs/rest` (a peer
// with bucketed rate limits) driven at the same endpoints. The emulator's limit is set out of reach
// so only the clients' own costs differ; the emulator shares the process, so every microsecond a
// client spends shows in the figures.

const TOKEN = 'bench-token-0123456789';
// The machine is shared: many short slices, interleaved in a rotating order, and medians of the
// per-round ratios, so load from elsewhere hits every subject alike.
const ROUNDS = 30;
const SLICE_MS = 120;

type Subject = { name: string; get(): Promise<unknown>; send(i: number): Promise<unknown> };

let close: () => Promise<void>;
let subjects: Subject[] = [];
let boardId = '';

beforeAll(async () => {
  const emu = await createEmulator({
    db: ':memory:',
    devToken: TOKEN,
    logger: false,
    rateLimit: { requests: 1e9, windowMs: 1000 },
  });
  const { apiUrl, url } = await emu.listen({ host: '127.0.0.1', port: 0 });
  const rawAgent = new Agent({ keepAliveTimeout: 30_000 });
  const rest = new RestClient({ token: TOKEN, baseUrl: apiUrl });
  // The peer's own global cap (50/s by default) and 50 ms offset are turned off: only its design
  // counts. It keeps its own undici (v6) and that undici's keep-alive global dispatcher.
  const discord = new REST({
    api: `${url}/api`,
    version: '1',
    authPrefix: 'Bearer',
    globalRequestsPerSecond: Number.POSITIVE_INFINITY,
    offset: 0,
  }).setToken(TOKEN);
  boardId = (await rest.listBoards())[0]?.id as string;
  const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
  const jsonHeaders = { ...headers, 'content-type': 'application/json' };
  const raw = async (method: 'GET' | 'POST', path: string, body?: string) => {
    const res = await request(`${apiUrl}${path}`, {
      method,
      // The same exchange RestClient has: a POST carries an Idempotency-Key, which the emulator pays for.
      headers: body ? { ...jsonHeaders, 'idempotency-key': randomUUID() } : headers,
      body: body ?? null,
      dispatcher: rawAgent,
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`raw ${res.statusCode} ${text}`);
    return JSON.parse(text);
  };
  subjects = [
    {
      name: 'raw undici.request (ceiling)',
      get: () => raw('GET', '/app'),
      send: (i) => raw('POST', `/boards/${boardId}/messages`, JSON.stringify({ content: `raw ${i}` })),
    },
    {
      name: 'RestClient',
      get: () => rest.getApp(),
      send: (i) => rest.sendMessage(boardId, { content: `rest ${i}` }),
    },
    {
      name: '@discordjs/rest (peer)',
      get: () => discord.get('/app'),
      send: (i) => discord.post(`/boards/${boardId}/messages`, { body: { content: `discord ${i}` } }),
    },
  ];
  close = async () => {
    discord.clearHandlerSweeper();
    discord.clearHashSweeper();
    await rest.close();
    await rawAgent.close();
    await emu.close();
  };
}, 60_000);

afterAll(async () => close?.());

/** One slice: requests per second, and CPU time of this process (clients and emulator) per request. */
interface Slice {
  rps: number;
  cpuUs: number;
}

/** Runs `concurrency` loops issuing `op` back to back for about `ms`. */
async function slice(op: (i: number) => Promise<unknown>, concurrency: number, ms: number): Promise<Slice> {
  let n = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const end = start + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) await op(n++);
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rps: (n * 1000) / (performance.now() - start), cpuUs: (used.user + used.system) / n };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function compare(bench: string, pick: (s: Subject) => (i: number) => Promise<unknown>, concurrency: number) {
  for (const s of subjects) await slice(pick(s), concurrency, 300); // warm-up
  const rates = subjects.map(() => [] as number[]);
  const ratios = subjects.map(() => [] as number[]);
  const cpu = subjects.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r++) {
    const round: Slice[] = [];
    for (let k = 0; k < subjects.length; k++) {
      const i = (r + k) % subjects.length;
      round[i] = await slice(pick(subjects[i] as Subject), concurrency, SLICE_MS);
    }
    round.forEach((v, i) => {
      rates[i]?.push(v.rps);
      ratios[i]?.push(v.rps / (round[0] as Slice).rps);
      cpu[i]?.push(v.cpuUs);
    });
  }
  const ceilingCpu = median(cpu[0] ?? []);
  const rows = subjects.flatMap((s, i) => [
    {
      bench,
      subject: s.name,
      value: median(rates[i] ?? []),
      unit: 'req/s',
      ratio: median(ratios[i] ?? []),
      note: `${concurrency} in flight; medians of ${ROUNDS} interleaved rounds`,
    },
    {
      bench: `${bench}, CPU`,
      subject: s.name,
      value: median(cpu[i] ?? []),
      unit: 'µs CPU/req',
      ratio: ceilingCpu / median(cpu[i] ?? []),
      note: 'client + emulator; ratio = ceiling CPU / this CPU',
    },
  ]);
  record(...rows);
  // The shared results file can be cleared by another bench run on this machine: print ours too.
  for (const r of rows)
    console.log(`${r.bench} | ${r.subject} | ${r.value.toFixed(1)} ${r.unit} | ${r.ratio.toFixed(2)}x`);
}

it('GET /app, one request at a time', () => compare('rest: GET /app (sequential)', (s) => () => s.get(), 1));
it('GET /app, 16 in flight', () => compare('rest: GET /app (concurrent)', (s) => () => s.get(), 16));
it('POST messages, one at a time', () => compare('rest: send message (sequential)', (s) => (i) => s.send(i), 1));
it('POST messages, 16 in flight', () => compare('rest: send message (concurrent)', (s) => (i) => s.send(i), 16));
