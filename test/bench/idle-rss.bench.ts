import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, it } from 'vitest';
import { childJson } from './lib/child-json.js';
import { buildEmulator, serveInChild, stopChildren } from './lib/child-server.js';
import { record } from './lib/record.js';

// A started, idle bot's memory: the dice example is started against an emulator (in its own process),
// then, once `start()` resolved and the process is idle, a forced GC and its RSS. The baseline is
// bare Node measured the same way in the same run (each round runs one of each, side by side), and
// each figure is the median of its rounds (fresh processes: start-up memory does not carry over).
// A third process starts the same bot with the i18n plugin of `@boardbot/core/i18n` (two locales):
// what i18next costs a bot that uses it; the dice bot alone shows that the others do not pay it.
// Two moments: 300 ms after start, and settled, 10 s later, once V8's memory reducer has run: a
// start-up's allocation grows the young generation to its maximum (2 × 16 MB semi-spaces on
// Node 20), which a forced GC alone does not give back until allocation has been low for seconds.
//
// Run it alone: `npx vitest run --config vitest.bench.config.ts test/bench/idle-rss.bench.ts`.

const root = fileURLToPath(new URL('../../', import.meta.url));
const ROUNDS = 5;
const SETTLE_MS = 10_000;

/** Child code that leaves the process idle, forces a full GC, and prints its RSS in bytes, twice. */
const MEASURE = `
  const rss = async (ms) => {
    await new Promise((r) => setTimeout(r, ms));
    globalThis.gc(); globalThis.gc();
    await new Promise((r) => setImmediate(r));
    return process.memoryUsage().rss;
  };
  const early = await rss(300);
  console.log(JSON.stringify({ rss: early, settled: await rss(${SETTLE_MS}) }));`;

const BARE = MEASURE;

function botCode(apiUrl: string): string {
  return `
    import { createDiceBot, DEV_TOKEN } from './examples/dice/dist/bot.js';
    const bot = createDiceBot({ token: DEV_TOKEN, apiUrl: '${apiUrl}' });
    await bot.start();
    ${MEASURE}
    await bot.stop();`;
}

/** The dice bot with i18n: the plugin's entry (and so i18next) loaded, its instance made. */
function i18nBotCode(apiUrl: string): string {
  return `
    import { createDiceBot, DEV_TOKEN } from './examples/dice/dist/bot.js';
    import { i18n } from '@boardbot/core/i18n';
    const resources = {
      en: { translation: { rolled_one: 'You rolled {{count}} die', rolled_other: 'You rolled {{count}} dice' } },
      fr: { translation: { rolled_one: 'Vous avez lancé {{count}} dé', rolled_other: 'Vous avez lancé {{count}} dés' } },
    };
    const bot = createDiceBot({ token: DEV_TOKEN, apiUrl: '${apiUrl}', plugins: [i18n({ resources })] });
    await bot.start();
    ${MEASURE}
    await bot.stop();`;
}

/** RSS in MB after start and settled. */
interface Rss {
  early: number;
  settled: number;
}

/** Runs `code` in a fresh `node --expose-gc` and resolves with the RSS figures it printed. */
async function rssOf(code: string): Promise<Rss> {
  const { rss, settled } = await childJson<{ rss: number; settled: number }>(code, 'rss');
  return { early: rss / 2 ** 20, settled: settled / 2 ** 20 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

beforeAll(() => {
  buildEmulator();
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'examples/dice'], { cwd: root });
}, 300_000);
afterAll(stopChildren);

it('measures a started, idle dice bot, with and without i18n, against bare Node', async () => {
  const emulator = await serveInChild(`
    import { createEmulator } from './packages/emulator/dist/index.js';
    const emu = await createEmulator({ db: ':memory:', logger: false });
    const { url } = await emu.listen({ port: 0 });
    console.log(JSON.stringify({ url }));`);
  const apiUrl = `${emulator.url}/api/v1`;
  const bare: Rss[] = [];
  const bot: Rss[] = [];
  const withI18n: Rss[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const [b, d, t] = await Promise.all([rssOf(BARE), rssOf(botCode(apiUrl)), rssOf(i18nBotCode(apiUrl))]);
    bare.push(b);
    bot.push(d);
    withI18n.push(t);
  }
  const spread = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} MB`;
  const rows = (moment: keyof Rss, label: string) => {
    const bases = bare.map((r) => r[moment]);
    const values = bot.map((r) => r[moment]);
    const i18nValues = withI18n.map((r) => r[moment]);
    const base = median(bases);
    const value = median(values);
    const i18nValue = median(i18nValues);
    return [
      {
        bench: `idle bot: RSS after a forced GC, ${label}`,
        subject: `bare node ${process.versions.node} (baseline)`,
        value: base,
        unit: 'MB',
        ratio: 1,
        note: `median of ${ROUNDS}, ${spread(bases)}`,
      },
      {
        bench: `idle bot: RSS after a forced GC, ${label}`,
        subject: 'examples/dice, started',
        value,
        unit: 'MB',
        ratio: value / base,
        note: `median of ${ROUNDS}, ${spread(values)}; the bot's own ${(value - base).toFixed(1)} MB`,
      },
      {
        bench: `idle bot: RSS after a forced GC, ${label}`,
        subject: 'examples/dice with i18n (@boardbot/core/i18n), started',
        value: i18nValue,
        unit: 'MB',
        ratio: i18nValue / base,
        note: `median of ${ROUNDS}, ${spread(i18nValues)}; ${(i18nValue - value).toFixed(1)} MB over the dice without i18n`,
      },
    ];
  };
  record(...rows('early', '300 ms after start'), ...rows('settled', `${SETTLE_MS / 1000} s later`));
}, 300_000);
