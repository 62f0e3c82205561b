import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmulator } from '@boardbot/emulator';
import { it } from 'vitest';
import { buildPackages } from './lib/child-server.js';
import { median } from './lib/in-process-bot.js';
import { record } from './lib/record.js';

// Dispatch against the lightest popular TypeScript bot framework: grammY's `bot.handleUpdate`
// (offline: `botInfo` given, so no API call; see lib/grammy-worker.mjs), a second peer, Slack Bolt's
// `app.processEvent` (offline: a receiver that opens nothing, the bot's ids given; see
// lib/bolt-worker.mjs, which also proves no connection was opened), and boardbot's runtime (see
// lib/boardbot-worker.mjs), each through 20 message handlers of which the last one matches, from a
// parsed update to the last handler's return, one update at a time (each awaited before the next, by
// every framework alike). Each framework runs in a child process of its own, with
// Node's default heap and only its own heap to collect (see lib/grammy-worker.mjs). CPU time (user + system) per event, in interleaved rounds
// of one run so the machine's drift hits all alike; each round's ratio pairs the figures measured next
// to each other. boardbot runs with its defaults (its position store in a state directory, the hang
// timeout, the OpenTelemetry API without an SDK; only the signal handlers are left out, as in every
// bench), twice: with `logger: false`, since the peers log nothing per event, and with a pino logger at
// `info` writing its `handled` line per event to /dev/null (the runtime censors its token paths the
// way it does the default logger's, and pino formats each line all the same).

const ROUNDS = 9;
const EVENTS = 4000;
/** What a peer's worker answers for a round: CPU µs per event, events handled, connections opened. */
interface PeerRound {
  us: number;
  handled: number;
  connections?: number;
}

/** A framework in a child process of its own (see lib/grammy-worker.mjs): CPU µs per event of `n`. */
async function peerWorker(
  file: string,
  name: string,
  options: { args?: unknown } = {},
): Promise<{ round(n: number): Promise<number>; close(): void }> {
  const args = options.args === undefined ? [] : [JSON.stringify(options.args)];
  const worker = fork(fileURLToPath(new URL(`./lib/${file}`, import.meta.url)), args, { stdio: 'inherit' });
  let failed: ((error: Error) => void) | undefined;
  worker.on('error', (error) => failed?.(error));
  worker.on('exit', (code) => failed?.(new Error(`${name} exited with ${code}`)));
  // A worker with a start of its own (boardbot's bot) says when it is ready.
  if (options.args !== undefined) {
    await new Promise<void>((resolve, reject) => {
      failed = reject;
      worker.once('message', () => resolve());
    });
  }
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
        worker.send({ n });
      }),
    close: () => {
      failed = undefined;
      worker.kill();
    },
  };
}

it('dispatches through 20 handlers at a lower CPU cost per event than grammY and Bolt', async () => {
  buildPackages('core', 'emulator');
  const stateDir = mkdtempSync(join(tmpdir(), 'boardbot-peers-'));
  const emulator = await createEmulator({ db: ':memory:', logger: false });
  const { apiUrl } = await emulator.listen({ host: '127.0.0.1', port: 0 });
  const grammy = await peerWorker('grammy-worker.mjs', 'grammY');
  const bolt = await peerWorker('bolt-worker.mjs', 'Bolt');
  const boardbot = (logging: boolean) =>
    peerWorker('boardbot-worker.mjs', 'boardbot', {
      args: { apiUrl, stateDir: join(stateDir, String(logging)), logging },
    });
  const silent = await boardbot(false);
  const logging = await boardbot(true);
  const subjects = [grammy, bolt, silent, logging].map((w) => () => w.round(EVENTS));
  for (const w of [grammy, bolt, silent, logging]) await w.round(2000);
  const samples: number[][] = subjects.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round, so none always runs first (on a cooler cache) or last.
    for (let k = 0; k < subjects.length; k++) {
      const i = (round + k) % subjects.length;
      samples[i]?.push(await (subjects[i] as () => Promise<number>)());
    }
  }
  for (const w of [grammy, bolt, silent, logging]) w.close();
  await emulator.close();
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
