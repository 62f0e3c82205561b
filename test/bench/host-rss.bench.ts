import { randomBytes } from 'node:crypto';
import { ControlClient } from '@boardbot/emulator/control';
import { afterAll, beforeAll, it } from 'vitest';
import { childJson } from './lib/child-json.js';
import { buildPackages, serveInChild, stopChildren } from './lib/child-server.js';
import { median } from './lib/measure.js';
import { record } from './lib/record.js';

// What an app added to a host costs, against what a process per app costs. One emulator (in its own
// process) holds 100 apps made through its control API; each subject is a fresh `node --expose-gc`
// started against it: one bot (`createBot`, the process per app of today, the baseline), and hosts
// (`createHost`) of 1, 10 and 100 apps, every app with the same one command. Each child times its
// start (`start()` until it resolves, every app running: connected, commands synced), then idles,
// and prints its RSS after a forced GC once V8's memory reducer has run (as idle-rss.bench.ts says:
// a start's allocation grows the young generation, which a forced GC alone does not give back).
// Per added app: (RSS(n) - RSS(1)) / (n - 1), compared with the whole RSS of the one-bot process.
// Each round runs the bot alone, the small hosts side by side, then the 100-app host alone (the two
// timed starts share the cores with nothing of this bench); each figure is the median of its rounds.
//
// Run it alone: `npx vitest run --config vitest.bench.config.ts test/bench/host-rss.bench.ts`.

const ROUNDS = 3;
const SETTLE_MS = 10_000;
const APPS = 100;

/** Child code: a one-command bot definition, a temporary state directory, the tokens from the environment. */
const PRELUDE = `
  import { mkdtempSync, rmSync } from 'node:fs';
  import { tmpdir } from 'node:os';
  import { join } from 'node:path';
  import { performance } from 'node:perf_hooks';
  import { Command, createBot, createHost, defineBot } from '@boardbot/core';
  class Roll { run(ctx) { return ctx.reply('4'); } }
  Command({ name: 'roll', description: 'Roll' })(Roll);
  const tokens = JSON.parse(process.env.BENCH_TOKENS);
  const apiUrl = process.env.BENCH_API_URL;
  const stateDir = mkdtempSync(join(tmpdir(), 'host-rss-'));
  const t0 = performance.now();`;

/** Child code that idles, forces a full GC, and prints the start time and the RSS in bytes. */
const MEASURE = `
  const readyMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, ${SETTLE_MS}));
  globalThis.gc(); globalThis.gc();
  await new Promise((r) => setImmediate(r));
  console.log(JSON.stringify({ rss: process.memoryUsage().rss, readyMs }));`;

const BOT = `
  ${PRELUDE}
  const bot = createBot({ token: tokens[0], apiUrl, handlers: [Roll], logger: false, stateDir, handleSignals: false });
  await bot.start();
  ${MEASURE}
  await bot.stop();
  rmSync(stateDir, { recursive: true, force: true });`;

const HOST = `
  ${PRELUDE}
  const bot = defineBot({ handlers: [Roll] });
  const apps = tokens.map((token, i) => ({ id: 'app-' + i, bot, token: async () => token }));
  const host = createHost({ stateDir, logger: false, handleSignals: false, defaults: { apiUrl } }, apps);
  await host.start();
  const failed = host.status().filter((a) => a.state !== 'running');
  if (failed.length > 0) throw new Error(failed.length + ' apps not running: ' + JSON.stringify(failed[0]));
  ${MEASURE}
  await host.stop();
  rmSync(stateDir, { recursive: true, force: true });`;

/** What a child printed: its RSS in MB and its start-to-ready time in ms. */
interface Figure {
  rss: number;
  readyMs: number;
}

/** Runs `code` in a fresh `node --expose-gc` with `tokens` and resolves with the figures it printed. */
async function run(code: string, apiUrl: string, tokens: string[]): Promise<Figure> {
  const { rss, readyMs } = await childJson<Figure>(code, 'rss', {
    BENCH_TOKENS: JSON.stringify(tokens),
    BENCH_API_URL: apiUrl,
  });
  return { rss: rss / 2 ** 20, readyMs };
}

beforeAll(() => buildPackages('emulator', 'core'), 300_000);
afterAll(stopChildren);

it(`measures RSS per added app in a host of 1, 10, ${APPS} apps against a process per app, and ${APPS} apps' start`, async () => {
  const adminKey = randomBytes(16).toString('hex');
  const emulator = await serveInChild(`
    import { createEmulator } from './packages/emulator/dist/index.js';
    const emu = await createEmulator({ db: ':memory:', logger: false, adminKey: '${adminKey}' });
    const { url } = await emu.listen({ host: '127.0.0.1', port: 0 });
    console.log(JSON.stringify({ url }));`);
  const control = new ControlClient({ url: emulator.url, adminKey });
  const tokens: string[] = [];
  for (let i = 0; i < APPS; i++) tokens.push((await control.createApp({ name: `bench-${i}` })).token);
  const apiUrl = `${emulator.url}/api/v1`;

  const sizes = [1, 10, APPS] as const;
  const bot: Figure[] = [];
  const hosts: Figure[][] = sizes.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    bot.push(await run(BOT, apiUrl, tokens.slice(0, 1)));
    const [h1, h10] = await Promise.all([
      run(HOST, apiUrl, tokens.slice(0, 1)),
      run(HOST, apiUrl, tokens.slice(0, 10)),
    ]);
    hosts[0]?.push(h1);
    hosts[1]?.push(h10);
    hosts[2]?.push(await run(HOST, apiUrl, tokens));
  }

  const spread = (xs: number[], unit: string, digits = 1) =>
    `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)} ${unit}`;
  const rssOf = (fs: Figure[]) => median(fs.map((f) => f.rss));
  const botRss = rssOf(bot);
  const hostRss = hosts.map(rssOf);
  const one = hostRss[0] as number;
  const bench = `host: RSS after start, forced GC ${SETTLE_MS / 1000} s later`;
  record(
    {
      bench,
      subject: `one bot process (createBot), node ${process.versions.node} (baseline: a process per app)`,
      value: botRss,
      unit: 'MB',
      ratio: 1,
      note: `median of ${ROUNDS}, ${spread(
        bot.map((f) => f.rss),
        'MB',
      )}`,
    },
    ...sizes.map((n, i) => ({
      bench,
      subject: `host of ${n} app${n === 1 ? '' : 's'} (createHost)`,
      value: hostRss[i] as number,
      unit: 'MB',
      ratio: (hostRss[i] as number) / botRss,
      note: `median of ${ROUNDS}, ${spread(
        (hosts[i] ?? []).map((f) => f.rss),
        'MB',
      )}`,
    })),
    ...sizes.slice(1).map((n, i) => {
      const perApp = ((hostRss[i + 1] as number) - one) / (n - 1);
      return {
        bench: 'host: RSS per added app, against a process per app',
        subject: `(RSS(${n}) - RSS(1)) / ${n - 1}`,
        value: perApp,
        unit: 'MB',
        ratio: perApp / botRss,
        note: `${perApp > 0 ? `1/${Math.round(botRss / perApp)}` : 'within the spread, not measurable as a share'} of a process per app (${botRss.toFixed(1)} MB each); goal under 2 MB an app`,
      };
    }),
  );

  const readyBot = median(bot.map((f) => f.readyMs));
  const ready100 = median((hosts[2] ?? []).map((f) => f.readyMs));
  record(
    {
      bench: 'host: start() to ready',
      subject: 'one bot (createBot) (baseline)',
      value: readyBot,
      unit: 'ms',
      ratio: 1,
      note: `median of ${ROUNDS}, ${spread(
        bot.map((f) => f.readyMs),
        'ms',
        0,
      )}; started alone`,
    },
    {
      bench: 'host: start() to ready',
      subject: `host of ${APPS} apps, every app running`,
      value: ready100,
      unit: 'ms',
      ratio: ready100 / readyBot,
      note: `median of ${ROUNDS}, ${spread(
        (hosts[2] ?? []).map((f) => f.readyMs),
        'ms',
        0,
      )}; started alone`,
    },
  );
}, 300_000);
