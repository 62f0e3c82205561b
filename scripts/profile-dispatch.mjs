// `node [--cpu-prof] scripts/profile-dispatch.mjs [--events 100000] [--burst] [--default-logger] [--count-promises]`
//
// The dispatch of peers-dispatch.bench.ts alone in a fresh process, to profile it or compare two
// builds of core: 20 `@OnMessage` listeners of which the last one matches, `message.create` events
// handed to the runtime by an in-process gateway (an in-memory emulator serves only the start), in
// rounds of 4,000, each event handled before the next is emitted (as grammY's worker awaits each
// update), or with `--burst` the round's events emitted at once (all 4,000 queued on the board). Prints the median CPU µs per event on stderr. `--default-logger` keeps the
// default pino logger (its lines go to stdout: redirect it), else `logger: false`.
// `--tracing off|api|sdk`: `tracing: false`, the OpenTelemetry API without an SDK (the default),
// or an SDK with a batch processor whose exporter drops every span. `--count-promises` also counts, with an async hook, the promises made per event. Uses the built
// packages (`npx tsc -b packages/core packages/emulator`).
import { createHook } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createBot, OnMessage } from '@boardbot/core';
import { createEmulator } from '@boardbot/emulator';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    'default-logger': { type: 'boolean', default: false },
    'count-promises': { type: 'boolean', default: false },
    tracing: { type: 'string', default: 'off' },
    burst: { type: 'boolean', default: false },
  },
});
const ROUND = 4000;
let handled = 0;

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

const emulator = await createEmulator({ db: ':memory:', logger: false });
const { apiUrl } = await emulator.listen({ host: '127.0.0.1', port: 0 });
const get = async (path) =>
  (await fetch(`${apiUrl}${path}`, { headers: { authorization: 'Bearer dev-token' } })).json();
const app = await get('/app');
const boardIds = (await get('/boards')).boards.map((b) => b.id);

/** Delivers what this script emits, in process. */
class Gateway extends EventEmitter {
  async connect() {
    const ready = { type: 'ready', app, board_ids: boardIds, resumed: false };
    this.emit('dispatch', { name: 'ready', id: '0', data: ready });
    return ready;
  }
  async close() {}
}
/** The `tracing` option of `--tracing`. */
async function tracing(mode) {
  if (mode === 'off') return { tracing: false };
  if (mode === 'api') return {};
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const dropAll = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  return { tracing: new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropAll)] }) };
}

let gateway;
const stateDir = mkdtempSync(join(tmpdir(), 'boardbot-profile-'));
const bot = createBot({
  token: 'dev-token',
  apiUrl,
  handlers: [Listeners],
  ...(values['default-logger'] ? {} : { logger: false }),
  handleSignals: false,
  ...(await tracing(values.tracing)),
  stateDir,
  // Above the rounds emitted at once on one board, whose messages exist only in this gateway: none is
  // set aside by the board's share of the intake to be read back over REST (it would not be found).
  maxPendingEvents: 100_000,
  gateway: () => {
    gateway = new Gateway();
    return gateway;
  },
});
await bot.start();

let seq = 0;
let nextId = 1;
const now = new Date().toISOString();
const message = () => ({
  id: randomUUID(),
  board_id: boardIds[0],
  author: null,
  kind: 'default',
  content: 'c20 5',
  media: null,
  embeds: null,
  webhook_name: 'profile',
  reply_to: null,
  seq: ++seq,
  created_at: now,
  edited_at: null,
  deleted_at: null,
  interaction: null,
});

/** CPU µs per event of `n` events, emitted at once and waited for. */
async function round(n) {
  const events = Array.from({ length: n }, () => ({
    id: String(nextId++),
    name: 'message.create',
    data: { type: 'message.create', message: message() },
  }));
  const before = handled;
  const cpu = process.cpuUsage();
  if (values.burst) {
    for (const event of events) gateway.emit('dispatch', event);
    await bot.idle();
  } else {
    for (const event of events) {
      gateway.emit('dispatch', event);
      await bot.idle();
    }
  }
  const used = process.cpuUsage(cpu);
  if (handled - before !== n) throw new Error(`handled ${handled - before} of ${n}`);
  return (used.user + used.system) / n;
}

await round(5000);
if (values['count-promises']) {
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises++;
    },
  }).enable();
  await round(1000);
  hook.disable();
  console.error(`promises per event: ${(promises / 1000).toFixed(1)}`);
}
const samples = [];
for (let done = 0; done < Number(values.events); done += ROUND) samples.push(await round(ROUND));
samples.sort((a, b) => a - b);
console.error(
  `median CPU per event: ${samples[samples.length >> 1].toFixed(1)} µs (${samples.length} rounds of ${ROUND})`,
);
await bot.stop();
await emulator.close();
rmSync(stateDir, { recursive: true, force: true });
