import { createBot, deriveCommands } from '@boardbot/core';
import { RestClient } from '@boardbot/rest';
import { Pool } from 'undici';
import { afterAll, beforeAll, it } from 'vitest';
import { buildEmulator, cpuSecondsOf, stopChildren } from './lib/child-server.js';
import { median, percentile } from './lib/measure.js';
import { record } from './lib/record.js';
import { BENCH_ADMIN_KEY as ADMIN, Roll, startBenchEmulator } from './lib/roll-bot.js';

// The interaction round trip on loopback: a person invokes a command through the control API, the
// emulator raises interaction.create on the gateway, the bot validates the options, answers over
// REST, and the control API's wait returns once the answer is stored. The emulator runs in its own
// process; the bot and the load generator share this one. The baseline is the same two control
// calls (invoke, then wait with a zero timeout) for a second app that no bot serves: what the
// platform's HTTP alone costs. Both run in 5 interleaved runs while the bot stays connected, so the
// latency the bot adds is read run by run and the p99 is the median of the 5 runs' p99s.

/** Interleaved runs of the latency comparison, and round trips per run and side. */
const RUNS = 5;
const TRIPS = 400;

beforeAll(buildEmulator, 120_000);
afterAll(stopChildren);

it('answers an interaction within 10 ms at p99 and 1,000 per second with one bot', async () => {
  const emulator = await startBenchEmulator();
  const origin = emulator.url;
  // Waits hold a connection each: two per person in flight, so no request queues in the pool.
  const pool = new Pool(origin, { connections: 64 });
  const headers = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
    const r = await pool.request({
      method,
      path: `/_emulator/v1${path}`,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await r.body.json()) as Record<string, unknown>;
    if (r.statusCode >= 300) throw new Error(`${method} ${path}: ${r.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const state = (await call('GET', '/state')) as {
    users: { id: string; username: string }[];
    boards: { id: string }[];
  };
  const user = state.users.find((u) => u.username === 'alice')?.id as string;
  const board = state.boards[0]?.id as string;

  const served = ((await call('GET', '/apps')) as { apps: { id: string }[] }).apps[0]?.id as string;
  // The same command for a second app that no bot serves: the baseline's invocations go to it.
  const idle = (await call('POST', '/apps', { name: 'unserved', token: 'unserved-token' })) as { app: { id: string } };
  await call('PUT', `/apps/${idle.app.id}/installs/${board}`);
  for (const token of ['dev-token', 'unserved-token']) {
    const rest = new RestClient({ token, baseUrl: `${origin}/api/v1` });
    await rest.replaceCommands(deriveCommands([Roll]));
    await rest.close();
  }

  const invoke = async (appId: string) =>
    (
      (await call('POST', '/interactions', {
        board_id: board,
        user_id: user,
        command: 'roll',
        options: { sides: 20 },
        app_id: appId,
      })) as {
        interaction: { id: string };
      }
    ).interaction.id;
  /** One round trip through the bot: invoke, then wait until the answer is stored. */
  const roundTrip = async () => {
    const id = await invoke(served);
    const view = (await call('GET', `/interactions/${id}/wait?answers=1&timeout_ms=5000`)) as { answers: unknown[] };
    if (view.answers.length !== 1) throw new Error('no answer');
  };
  /** The same two calls for the unserved app: invoke, then a wait that returns at once. */
  const platformOnly = async () => {
    const id = await invoke(idle.app.id);
    await call('GET', `/interactions/${id}/wait?answers=1&timeout_ms=0`);
  };
  const latencies = async (fn: () => Promise<void>, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await fn();
      out.push(performance.now() - t);
    }
    return out;
  };
  const rate = async (fn: () => Promise<void>, ms: number, inFlight: number) => {
    let done = 0;
    const stopAt = performance.now() + ms;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() < stopAt) {
          await fn();
          done++;
        }
      }),
    );
    return (done * 1000) / ms;
  };

  const bot = createBot({
    token: 'dev-token',
    apiUrl: `${origin}/api/v1`,
    handlers: [Roll],
    logger: false,
    handleSignals: false,
  });
  await bot.start();
  await latencies(platformOnly, 200); // warm-up
  await latencies(roundTrip, 200);
  const runs: { base: number[]; trips: number[] }[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Alternate which goes first, so neither always meets a warmer machine.
    const first = run % 2 === 0;
    const base = first ? await latencies(platformOnly, TRIPS) : [];
    const trips = await latencies(roundTrip, TRIPS);
    runs.push({ base: first ? base : await latencies(platformOnly, TRIPS), trips });
  }
  const baseRate = await rate(platformOnly, 3000, 32);
  const emulatorPid = emulator.pid;
  const cpuBefore = { bot: process.cpuUsage(), emulator: cpuSecondsOf(emulatorPid) };
  const tripRate = await rate(roundTrip, 3000, 32);
  const botCpu = process.cpuUsage(cpuBefore.bot);
  const load = {
    bot: Math.round(((botCpu.user + botCpu.system) / 1e6 / 3) * 100),
    emulator: Math.round(((cpuSecondsOf(emulatorPid) - cpuBefore.emulator) / 3) * 100),
  };

  await bot.stop();
  await pool.close();
  // Each figure is the median over the runs of that run's percentile.
  const over = (pick: (r: (typeof runs)[number]) => number[], q: number) =>
    median(runs.map((r) => percentile(pick(r), q)));
  const spread = (pick: (r: (typeof runs)[number]) => number[], q: number) => {
    const xs = runs.map((r) => percentile(pick(r), q));
    return `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)} ms over ${RUNS} runs of ${TRIPS}`;
  };
  const added = median(runs.map((r) => percentile(r.trips, 50) - percentile(r.base, 50)));
  record(
    {
      bench: 'core: round trip',
      subject: 'invoke + wait, unserved app (baseline) p50',
      value: over((r) => r.base, 50),
      unit: 'ms',
      ratio: 1,
      note: spread((r) => r.base, 50),
    },
    {
      bench: 'core: round trip',
      subject: 'invoke → bot answers → stored, p50',
      value: over((r) => r.trips, 50),
      unit: 'ms',
      ratio: over((r) => r.trips, 50) / over((r) => r.base, 50),
      note: `${spread((r) => r.trips, 50)}; the bot adds ${added.toFixed(2)} ms (median of the runs' differences; target ≤ 0.4 ms)`,
    },
    {
      bench: 'core: round trip',
      subject: 'invoke + wait, unserved app (baseline) p99',
      value: over((r) => r.base, 99),
      unit: 'ms',
      ratio: 1,
      note: spread((r) => r.base, 99),
    },
    {
      bench: 'core: round trip',
      subject: 'invoke → bot answers → stored, p99',
      value: over((r) => r.trips, 99),
      unit: 'ms',
      ratio: over((r) => r.trips, 99) / over((r) => r.base, 99),
      note: `median of ${RUNS} runs' p99 (${spread((r) => r.trips, 99)}); target p99 < 10 ms`,
    },
    {
      bench: 'core: round trip',
      subject: 'invoke + wait, unserved app (baseline)',
      value: baseRate,
      unit: 'pairs/s',
      ratio: 1,
    },
    {
      bench: 'core: round trip',
      subject: 'answered interactions, one bot process',
      value: tripRate,
      unit: 'answers/s',
      ratio: tripRate / baseRate,
      note: `32 people at once for 3 s; CPU: bot + load ${load.bot}%, emulator ${load.emulator}%; target ≥ 1,000/s`,
    },
  );
}, 180_000);
