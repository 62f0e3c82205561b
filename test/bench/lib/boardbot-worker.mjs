// The boardbot side of peers-dispatch.bench.ts, a child process of its own like the peers' (see
// grammy-worker.mjs). Measured in the vitest process instead, boardbot's collections also walked
// vitest's heap, and on Node 20 its figure moved with whatever the test process held (issue 41). The
// bot runs on the built
// packages (`dist/`; the bench builds them first) with its defaults (the position store in a state
// directory, the hang timeout, the OpenTelemetry API without an SDK), with `logger: false` or
// (`logging` in the JSON of the first argument) a pino logger at `info` writing its `handled` line per event to /dev/null;
// the emulator that serves the bot's start() runs in the bench's process (`apiUrl`). Each
// message `{ n }` emits n `message.create` events through an in-process gateway, one at a time,
// waiting for the bot to be idle after each, and answers with the CPU microseconds per event.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createBot, OnMessage } from '@boardbot/core';
import { pino } from 'pino';

const { apiUrl, stateDir, logging } = JSON.parse(process.argv[2] ?? '{}');
let handled = 0;

/** One class with 20 `@OnMessage` listeners (`^c<i> (\d+)$`), decorated the way the compiler would. */
class Listeners {}
for (let i = 1; i <= 20; i++) {
  const method = `c${i}`;
  const fn = (ctx) => {
    handled += ctx.match ? 1 : 0;
  };
  Object.defineProperty(Listeners.prototype, method, { value: fn, writable: true, configurable: true });
  OnMessage(new RegExp(`^c${i} (\\d+)$`))(
    Listeners.prototype,
    method,
    Object.getOwnPropertyDescriptor(Listeners.prototype, method),
  );
}

const get = async (path) =>
  (await fetch(`${apiUrl}${path}`, { headers: { authorization: 'Bearer dev-token' } })).json();
const app = await get('/app');
const boardIds = (await get('/boards')).boards.map((b) => b.id);

/** Delivers what this worker emits, in process, so only the runtime is measured. */
class Gateway extends EventEmitter {
  async connect() {
    const ready = { type: 'ready', app, board_ids: boardIds, resumed: false };
    this.emit('dispatch', { name: 'ready', id: '0', data: ready });
    return ready;
  }
  async close() {}
}

/** A started bot on its own in-process gateway. */
async function startBot(logger) {
  let gateway;
  const bot = createBot({
    token: 'dev-token',
    apiUrl,
    handlers: [Listeners],
    handleSignals: false,
    stateDir,
    // Above the rounds emitted at once on one board, whose messages exist only in this gateway: none is
    // set aside by the board's share of the intake to be read back over REST (it would not be found).
    maxPendingEvents: 100_000,
    logger,
    gateway: () => {
      gateway = new Gateway();
      return gateway;
    },
  });
  await bot.start();
  return { bot, gateway };
}

const { bot, gateway } = await startBot(
  logging ? pino({ name: 'boardbot', level: 'info' }, pino.destination({ dest: '/dev/null', sync: true })) : false,
);

let seq = 0;
let nextId = 1;
const now = new Date().toISOString();
/** A webhook's `c20 5` on the first board: no author profile to read, the last listener matching. */
const message = () => ({
  id: randomUUID(),
  board_id: boardIds[0],
  author: null,
  kind: 'default',
  content: 'c20 5',
  media: null,
  embeds: null,
  webhook_name: 'bench',
  reply_to: null,
  seq: ++seq,
  created_at: now,
  edited_at: null,
  deleted_at: null,
  interaction: null,
});

process.on('message', async ({ n }) => {
  const events = Array.from({ length: n }, () => ({
    id: String(nextId++),
    name: 'message.create',
    data: { type: 'message.create', message: message() },
  }));
  const before = handled;
  const cpu = process.cpuUsage();
  // One event at a time, each handled before the next is emitted, as the peers' workers await each
  // update: 4,000 emitted at once would measure a queue of 4,000 (all held, so moved to the old heap
  // and collected there), which neither peer is given.
  for (const event of events) {
    gateway.emit('dispatch', event);
    await bot.idle();
  }
  const used = process.cpuUsage(cpu);
  process.send({ us: (used.user + used.system) / n, handled: handled - before });
});
process.send({ ready: true });
