import { deriveCommands } from '@boardbot/core';
import { RestClient } from '@boardbot/rest';
import { Pool } from 'undici';
import { afterAll, beforeAll, it } from 'vitest';
import { buildPackages, cpuSplitOf, stopChildren } from './lib/child-server.js';
import { median } from './lib/in-process-bot.js';
import { record } from './lib/record.js';
import { BENCH_ADMIN_KEY as ADMIN, Roll, startBenchBot, startBenchEmulator } from './lib/roll-bot.js';

// Answered interactions per second with one bot: 32 people at once spread over 16 boards, each
// invoking /roll through the control API and waiting, in the same request, until the bot's answer is
// stored (`POST /interactions?answers=1`). The emulator and the real @boardbot/core bot each run in
// their own process (their CPU is read from /proc); the load generator runs in this one. The baseline, in the same run, is the same control call with no
// bot (the invocation, and a wait that returns at once): what the platform's HTTP alone allows.
// BOARDBOT_BENCH_CPU_PROF=<dir> writes the emulator's and the bot's profiles apart.

const BOARDS = 16;
const PEOPLE = 32;
const ROUNDS = 3;
const ROUND_MS = 3000;

beforeAll(() => buildPackages('emulator', 'core'), 120_000);
afterAll(stopChildren);

it('answers 2,500 interactions/s with one bot, 32 people over 16 boards', async () => {
  const emulator = await startBenchEmulator();
  // Each person's request holds a connection while it waits: one each, so no request queues in the pool.
  const pool = new Pool(emulator.url, { connections: PEOPLE });
  const headers = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> => {
    const r = await pool.request({
      method,
      path: `/_emulator/v1${path}`,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await r.body.json()) as T;
    if (r.statusCode >= 300) throw new Error(`${method} ${path}: ${r.statusCode} ${JSON.stringify(json)}`);
    return json;
  };

  // 16 boards with dev-bot installed, two people on each: person i invokes on board i mod 16.
  const { apps } = await call<{ apps: { id: string; name: string }[] }>('GET', '/apps');
  const appId = apps.find((a) => a.name === 'dev-bot')?.id as string;
  const people: { user: string; board: string }[] = [];
  for (let b = 0; b < BOARDS; b++) {
    const board = (await call<{ id: string }>('POST', '/boards', { name: `bench-${b}` })).id;
    await call('PUT', `/apps/${appId}/installs/${board}`);
    for (let k = 0; k < PEOPLE / BOARDS; k++) {
      const user = (await call<{ id: string }>('POST', '/users', { username: `person-${b}-${k}` })).id;
      await call('PUT', `/boards/${board}/members/${user}`);
      people.push({ user, board });
    }
  }
  const rest = new RestClient({ token: 'dev-token', baseUrl: `${emulator.url}/api/v1` });
  await rest.replaceCommands(deriveCommands([Roll]));
  await rest.close();

  /** Invokes as `who` and waits in the same request for `answers` answers, at most `timeoutMs`. */
  const invoke = (who: { user: string; board: string }, answers: number, timeoutMs: number) =>
    call<{ answers: unknown[] }>('POST', `/interactions?answers=${answers}&timeout_ms=${timeoutMs}`, {
      board_id: who.board,
      user_id: who.user,
      command: 'roll',
      options: { sides: 20 },
    });
  /** Invoke, and wait until the bot's answer is stored: one control request. */
  const answered = async (who: { user: string; board: string }) => {
    if ((await invoke(who, 1, 5000)).answers.length !== 1) throw new Error('no answer');
  };
  /** The same request without a bot: the invocation, and a wait that returns at once. */
  const platformOnly = async (who: { user: string; board: string }) => {
    await invoke(who, 1, 0);
  };
  /** Completions per second of `fn` with every person at once, and each process's CPU per completion. */
  const rate = async (fn: (who: { user: string; board: string }) => Promise<void>, ms: number, botPid?: number) => {
    let done = 0;
    const cpuBefore = cpuSplitOf(emulator.pid);
    const botBefore = botPid ? cpuSplitOf(botPid) : { user: 0, system: 0 };
    const hereBefore = process.cpuUsage();
    const stopAt = performance.now() + ms;
    await Promise.all(
      people.map(async (who) => {
        while (performance.now() < stopAt) {
          await fn(who);
          done++;
        }
      }),
    );
    const cpu = cpuSplitOf(emulator.pid);
    const cpuUs = ((cpu.user + cpu.system - cpuBefore.user - cpuBefore.system) * 1e6) / done;
    // The kernel's part: socket reads and writes, which no change to the emulator's own code removes.
    const sysUs = ((cpu.system - cpuBefore.system) * 1e6) / done;
    const botCpu = botPid ? cpuSplitOf(botPid) : { user: 0, system: 0 };
    const botUs = ((botCpu.user + botCpu.system - botBefore.user - botBefore.system) * 1e6) / done;
    const botSysUs = ((botCpu.system - botBefore.system) * 1e6) / done;
    const here = process.cpuUsage(hereBefore);
    // This process: the load generator alone.
    const hereUs = (here.user + here.system) / done;
    return { perSecond: (done * 1000) / ms, cpuUs, sysUs, botUs, botSysUs, hereUs };
  };

  await rate(platformOnly, 500); // warm-up
  // The baseline runs first and with no bot connected: a connected bot would receive its events.
  const base = [];
  for (let r = 0; r < ROUNDS; r++) base.push(await rate(platformOnly, ROUND_MS));

  const bot = await startBenchBot(`${emulator.url}/api/v1`);
  await rate(answered, 500, bot.pid); // warm-up
  const trips = [];
  for (let r = 0; r < ROUNDS; r++) trips.push(await rate(answered, ROUND_MS, bot.pid));
  await pool.close();

  const spread = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
  const baseRate = median(base.map((b) => b.perSecond));
  const tripRates = trips.map((t) => t.perSecond);
  const tripRate = median(tripRates);
  const cpu = { base: median(base.map((b) => b.cpuUs)), trip: median(trips.map((t) => t.cpuUs)) };
  record(
    {
      bench: 'emulator: interactions',
      subject: 'invoke and wait in one request, no bot (baseline)',
      value: baseRate,
      unit: 'invocations/s',
      ratio: 1,
      note: `median of ${ROUNDS} rounds of ${ROUND_MS / 1000} s (${spread(base.map((b) => b.perSecond))}); emulator CPU ${Math.round(cpu.base)} µs per invocation`,
    },
    {
      bench: 'emulator: interactions',
      subject: 'answered interactions, one bot, 32 people over 16 boards',
      value: tripRate,
      unit: 'answers/s',
      ratio: tripRate / baseRate,
      note: `median of ${ROUNDS} rounds (${spread(tripRates)}); target ≥ 2,500/s`,
    },
    {
      bench: 'emulator: interactions',
      subject: 'emulator CPU per answered interaction',
      value: cpu.trip,
      unit: 'µs',
      note: `median of ${ROUNDS} rounds (${spread(trips.map((t) => t.cpuUs))}); in the kernel ${Math.round(median(trips.map((t) => t.sysUs)))} µs`,
    },
    {
      bench: 'emulator: interactions',
      subject: 'bot CPU per answered interaction',
      value: median(trips.map((t) => t.botUs)),
      unit: 'µs',
      note: `median of ${ROUNDS} rounds (${spread(trips.map((t) => t.botUs))}); its own process; in the kernel ${Math.round(median(trips.map((t) => t.botSysUs)))} µs`,
    },
    {
      bench: 'emulator: interactions',
      subject: 'load generator CPU per answered interaction',
      value: median(trips.map((t) => t.hereUs)),
      unit: 'µs',
      note: `median of ${ROUNDS} rounds (${spread(trips.map((t) => t.hereUs))}); the load alone: ${Math.round(median(base.map((b) => b.hereUs)))} µs per invocation`,
    },
  );
}, 180_000);
