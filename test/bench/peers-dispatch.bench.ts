import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type MessageContext, OnMessage } from '@boardbot/core';
import { pino } from 'pino';
import { it } from 'vitest';
import { inProcessRig, median } from './lib/in-process-bot.js';
import { record } from './lib/record.js';

// Dispatch against the lightest popular TypeScript bot framework: grammY's `bot.handleUpdate`
// (offline: `botInfo` given, so no API call; in a worker thread, see lib/grammy-worker.mjs), a second
// peer, Slack Bolt's `app.processEvent` (offline: a receiver that opens nothing, the bot's ids given;
// its own worker, see lib/bolt-worker.mjs, which also proves no connection was opened), and boardbot's
// runtime, each through 20 message handlers of which the last one matches, from a parsed update to the
// last handler's return. CPU time (user + system) per event, in interleaved rounds of one run so the
// machine's drift hits all alike; each round's ratio pairs the figures measured next to each other.
// boardbot runs with its defaults (its position store in a state directory, the hang timeout, the
// OpenTelemetry API without an SDK; only the signal handlers are left out, as in every bench), twice:
// with `logger: false`, since the peers log nothing per event, and with its default pino logger at
// `info`, which writes a `handled` line per event (here a pino logger at `info` writing to /dev/null,
// so the vitest output is not flooded: the runtime censors its token paths the way it does the default
// logger's, and pino formats each line all the same).

const HANDLERS = 20;
const ROUNDS = 9;
const EVENTS = 4000;
let handled = 0;

/** `c1 <n>` … `c20 <n>`: one pattern per handler, the content `c20 5` matches the last one only. */
const patterns = Array.from({ length: HANDLERS }, (_, i) => new RegExp(`^c${i + 1} (\\d+)$`));

/** One boardbot class with 20 `@OnMessage` listeners, decorated the way the compiler would. */
class Listeners {}
patterns.forEach((pattern, i) => {
  const method = `c${i + 1}`;
  const fn = (ctx: MessageContext) => {
    handled += ctx.match ? 1 : 0;
  };
  Object.defineProperty(Listeners.prototype, method, { value: fn, writable: true, configurable: true });
  const descriptor = Object.getOwnPropertyDescriptor(Listeners.prototype, method) as PropertyDescriptor;
  OnMessage(pattern)(Listeners.prototype, method, descriptor);
});

/** What a peer's worker answers for a round: CPU µs per event, events handled, connections opened. */
interface PeerRound {
  us: number;
  handled: number;
  connections?: number;
}

/** A peer framework in a worker thread of its own (see lib/grammy-worker.mjs): CPU µs per event of `n`. */
function peerWorker(file: string, name: string): { round(n: number): Promise<number>; close(): Promise<number> } {
  const worker = new Worker(new URL(`./lib/${file}`, import.meta.url));
  let failed: ((error: Error) => void) | undefined;
  worker.on('error', (error) => failed?.(error));
  return {
    round: (n) =>
      new Promise((resolve, reject) => {
        failed = reject;
        worker.once('message', ({ us, handled: count, connections = 0 }: PeerRound) => {
          // An offline peer that reached the network would be measured with its I/O: not this bench.
          if (connections !== 0) reject(new Error(`${name} opened ${connections} connection(s)`));
          else if (count !== n) reject(new Error(`${name} handled ${count} of ${n}`));
          else resolve(us);
        });
        worker.postMessage({ n });
      }),
    close: () => worker.terminate(),
  };
}

it('dispatches through 20 handlers at a lower CPU cost per event than grammY and Bolt', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'boardbot-peers-'));
  const rig = await inProcessRig();
  const silent = await rig.bot({ handlers: [Listeners], handleSignals: false, stateDir, logger: false });
  const logging = await rig.bot({
    handlers: [Listeners],
    handleSignals: false,
    stateDir,
    logger: pino({ name: 'boardbot', level: 'info' }, pino.destination({ dest: '/dev/null', sync: true })),
  });
  const grammy = peerWorker('grammy-worker.mjs', 'grammY');
  const bolt = peerWorker('bolt-worker.mjs', 'Bolt');
  let nextId = 1;

  const boardbotRound = async ({ bot, gateway }: typeof silent, n: number) => {
    const events = Array.from({ length: n }, () => ({
      id: String(nextId++),
      name: 'message.create',
      data: { type: 'message.create', message: rig.message(undefined, 'c20 5') },
    }));
    const before = handled;
    const cpu = process.cpuUsage();
    for (const e of events) gateway.emit('dispatch', e);
    await bot.idle();
    const used = process.cpuUsage(cpu);
    if (handled - before !== n) throw new Error(`boardbot handled ${handled - before} of ${n}`);
    return (used.user + used.system) / n;
  };
  const subjects = [
    () => grammy.round(EVENTS),
    () => bolt.round(EVENTS),
    () => boardbotRound(silent, EVENTS),
    () => boardbotRound(logging, EVENTS),
  ];
  await grammy.round(2000);
  await bolt.round(2000);
  await boardbotRound(silent, 2000);
  await boardbotRound(logging, 2000);
  const samples: number[][] = subjects.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round, so none always runs first (on a cooler cache) or last.
    for (let k = 0; k < subjects.length; k++) {
      const i = (round + k) % subjects.length;
      samples[i]?.push(await (subjects[i] as () => Promise<number>)());
    }
  }
  await grammy.close();
  await bolt.close();
  await silent.bot.stop();
  await logging.bot.stop();
  await rig.close();
  rmSync(stateDir, { recursive: true, force: true });

  const spread = (xs: number[], digits = 1) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
  /** Each round's ratio of `xs` to `base`: two figures measured next to each other. */
  const paired = (xs: number[], base: number[]) => xs.map((x, round) => x / (base[round] as number));
  const [theirs = [], bolts = [], ...ours] = samples;
  const bench = 'peers: dispatch CPU, 20 message handlers, the last matching';
  const labels = [
    'boardbot, defaults, logger: false (message.create)',
    'boardbot, defaults with its info log line per event',
  ];
  const targets = ['; target ≤ 0.5×', "; the log line's price"];
  const boltRatios = paired(bolts, theirs);
  record(
    {
      bench,
      subject: `grammY ${versionOf('grammy')} bot.handleUpdate (baseline)`,
      value: median(theirs),
      unit: 'µs CPU/event',
      ratio: 1,
      note: `${spread(theirs)} µs over ${ROUNDS} interleaved rounds of ${EVENTS}`,
    },
    {
      bench,
      subject: `Slack Bolt ${versionOf('@slack/bolt')} app.processEvent, offline receiver`,
      value: median(bolts),
      unit: 'µs CPU/event',
      ratio: median(boltRatios),
      note: `${spread(bolts)} µs; paired ratio per round ${spread(boltRatios, 2)}×`,
    },
    ...ours.map((xs, j) => {
      const ratios = paired(xs, theirs);
      const againstBolt = paired(xs, bolts);
      return {
        bench,
        subject: labels[j] as string,
        value: median(xs),
        unit: 'µs CPU/event',
        ratio: median(ratios),
        note: `${spread(xs)} µs; paired ratio per round ${spread(ratios, 2)}×${targets[j]}; against Bolt ${median(againstBolt).toFixed(2)}× (${spread(againstBolt, 2)})`,
      };
    }),
  );
}, 300_000);
/** An installed peer's version, for the table. */
function versionOf(name: string): string {
  const path = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}
