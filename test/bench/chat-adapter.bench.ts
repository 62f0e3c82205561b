import { ControlClient } from '@boardbot/emulator/control';
import type { Message } from '@boardbot/protocol';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, it } from 'vitest';
import { buildPackages, type ChildServer, cpuSecondsOf, serveInChild, stopChildren } from './lib/child-server.js';
import { median, percentile } from './lib/measure.js';
import { record } from './lib/record.js';
import { BENCH_ADMIN_KEY, startBenchEmulator } from './lib/roll-bot.js';

// The Chat SDK adapter's cost per message beside boardbot's own runtime, on the same bot: a person
// writes `@<bot> ping <n>`, the bot replies `pong <n>`. Two apps on one emulator (its own process),
// each on a board of its own: dev-bot served by @boardbot/core, chat-bot by Chat SDK on the board
// adapter (memory state). Each bot is a process of its own, so its CPU (read from /proc) is its own.
// Interleaved runs, each side in turn: the round trip one message at a time (post → the reply seen
// on the control API's activity stream), then a burst with 16 messages in flight, whose bot CPU per
// answer is the overhead per message. Core runs with orderBy 'none', as Chat runs threads at once.

const RUNS = 3;
const TRIPS = 200;
const BURST = 1500;
const IN_FLIGHT = 16;

beforeAll(() => buildPackages('emulator', 'core', 'chat-adapter'), 180_000);
afterAll(stopChildren);

/** The same bot on boardbot's runtime. */
const coreBot = (apiUrl: string) =>
  serveInChild(`
    import { OnMessage, createBot } from './packages/core/dist/index.js';
    class Ping { pong(ctx) { return 'pong ' + ctx.message.content.split(' ').pop(); } }
    OnMessage(/^@dev-bot ping /)(Ping.prototype, 'pong', Object.getOwnPropertyDescriptor(Ping.prototype, 'pong'));
    const bot = createBot({ token: 'dev-token', apiUrl: ${JSON.stringify(apiUrl)}, handlers: [Ping], logger: false,
      handleSignals: false, orderBy: 'none' });
    await bot.start();
    console.log(JSON.stringify({ url: ${JSON.stringify(apiUrl)} }));`);

/** The same bot on Chat SDK and the board adapter. */
const chatBot = (apiUrl: string) =>
  serveInChild(`
    import { Chat } from 'chat';
    import { createMemoryState } from '@chat-adapter/state-memory';
    import { createBoardAdapter } from './packages/chat-adapter/dist/index.js';
    const bot = new Chat({ userName: 'chat-bot', state: createMemoryState(), logger: 'silent',
      adapters: { board: createBoardAdapter({ token: 'chat-token', baseUrl: ${JSON.stringify(apiUrl)} }) } });
    bot.onNewMention(async (thread, message) => { await thread.post('pong ' + message.text.split(' ').pop()); });
    await bot.initialize();
    console.log(JSON.stringify({ url: ${JSON.stringify(apiUrl)} }));`);

it('costs per message, Chat SDK on the board adapter beside boardbot’s runtime', async () => {
  const emulator = await startBenchEmulator();
  const control = new ControlClient({ url: `${emulator.url}/_emulator/v1`, adminKey: BENCH_ADMIN_KEY });
  const state = await control.state();
  const board = (name: string) => state.boards.find((b) => b.name === name)?.id as string;
  const alice = state.users.find((u) => u.username === 'alice')?.id as string;
  const devBot = state.apps.find((a) => a.name === 'dev-bot')?.id as string;
  const chatApp = await control.createApp({ name: 'chat-bot', token: 'chat-token' });
  await control.uninstall(devBot, board('random'));
  await control.install(chatApp.app.id, board('random'));

  // Replies, by the message they answer, as the activity stream shows them.
  const waiting = new Map<string, () => void>();
  const early = new Set<string>();
  const activity = new EventSource(control.eventsUrl());
  activity.addEventListener('message.create', (e) => {
    const { message } = JSON.parse(e.data) as { message: Message };
    if (message.reply_to === null) return;
    const wake = waiting.get(message.reply_to);
    if (wake) wake();
    else early.add(message.reply_to);
  });
  const apiUrl = `${emulator.url}/api/v1`;
  const sides: { name: string; board: string; mention: string; bot: ChildServer }[] = [
    { name: '@boardbot/core', board: board('general'), mention: '@dev-bot', bot: await coreBot(apiUrl) },
    {
      name: 'Chat SDK + @boardbot/chat-adapter',
      board: board('random'),
      mention: '@chat-bot',
      bot: await chatBot(apiUrl),
    },
  ];

  let n = 0;
  /** One message, and the time until its reply is seen. */
  const roundTrip = async (side: (typeof sides)[number]) => {
    const t = performance.now();
    const m = await control.postMessage(side.board, { user_id: alice, content: `${side.mention} ping ${n++}` });
    if (!early.delete(m.id)) await new Promise<void>((resolve) => waiting.set(m.id, resolve));
    waiting.delete(m.id);
    return performance.now() - t;
  };
  const trips = async (side: (typeof sides)[number], count: number) => {
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push(await roundTrip(side));
    return out;
  };
  const burst = async (side: (typeof sides)[number]) => {
    const cpu = cpuSecondsOf(side.bot.pid);
    const t = performance.now();
    let left = BURST;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (left-- > 0) await roundTrip(side);
      }),
    );
    return {
      perSecond: (BURST * 1000) / (performance.now() - t),
      cpuUs: ((cpuSecondsOf(side.bot.pid) - cpu) * 1e6) / BURST,
    };
  };

  for (const side of sides) await trips(side, 100); // warm-up
  const results = sides.map(() => ({ trips: [] as number[][], bursts: [] as { perSecond: number; cpuUs: number }[] }));
  for (let run = 0; run < RUNS; run++) {
    // Alternate which side goes first, so neither always meets a warmer machine.
    const order = run % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) results[i]?.trips.push(await trips(sides[i] as (typeof sides)[number], TRIPS));
    for (const i of order) results[i]?.bursts.push(await burst(sides[i] as (typeof sides)[number]));
  }
  activity.close();

  const [core, chat] = results as [(typeof results)[number], (typeof results)[number]];
  const p = (r: (typeof results)[number], q: number) => median(r.trips.map((t) => percentile(t, q)));
  const cpu = (r: (typeof results)[number]) => median(r.bursts.map((b) => b.cpuUs));
  const rate = (r: (typeof results)[number]) => median(r.bursts.map((b) => b.perSecond));
  const bench = 'chat-adapter: per message';
  const of = `median of ${RUNS} interleaved runs`;
  record(
    {
      bench,
      subject: `${sides[0]?.name}: round trip p50`,
      value: p(core, 50),
      unit: 'ms',
      ratio: 1,
      note: `${of} of ${TRIPS}`,
    },
    {
      bench,
      subject: `${sides[1]?.name}: round trip p50`,
      value: p(chat, 50),
      unit: 'ms',
      ratio: p(chat, 50) / p(core, 50),
    },
    { bench, subject: `${sides[0]?.name}: round trip p99`, value: p(core, 99), unit: 'ms', ratio: 1 },
    {
      bench,
      subject: `${sides[1]?.name}: round trip p99`,
      value: p(chat, 99),
      unit: 'ms',
      ratio: p(chat, 99) / p(core, 99),
    },
    {
      bench,
      subject: `${sides[0]?.name}: bot CPU per answer`,
      value: cpu(core),
      unit: 'µs',
      ratio: 1,
      note: `${BURST} messages, ${IN_FLIGHT} in flight; /proc, 10 ms ticks`,
    },
    {
      bench,
      subject: `${sides[1]?.name}: bot CPU per answer`,
      value: cpu(chat),
      unit: 'µs',
      ratio: cpu(chat) / cpu(core),
      note: `the adapter adds ${(cpu(chat) - cpu(core)).toFixed(0)} µs a message`,
    },
    { bench, subject: `${sides[0]?.name}: answers/s`, value: rate(core), unit: 'answers/s', ratio: 1 },
    {
      bench,
      subject: `${sides[1]?.name}: answers/s`,
      value: rate(chat),
      unit: 'answers/s',
      ratio: rate(chat) / rate(core),
    },
  );
}, 600_000);
