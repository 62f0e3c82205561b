import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilePositionStore, type MessageContext, OnMessage } from '@boardbot/core';
import { it } from 'vitest';
import { buildFixtureBot } from '../restart/support/bot-process.js';
import { scenario } from '../restart/support/scenario.js';
import { inProcessRig, median } from './lib/in-process-bot.js';
import { record } from './lib/record.js';

// What keeping a resume point costs: dispatch throughput with the default file store (the Progress
// line of every event, the keeper, the file writes) against `position: false`, which records nothing,
// in rounds of one run; and how long a restarted bot takes to handle its first missed event. The
// throughput is also counted per CPU second of the process, which other load on a shared machine
// bends less than wall time.

let handled = 0;
const ROUNDS = 21;
const EVENTS = 10_000;

class Listener {
  @OnMessage(/^roll/)
  roll(ctx: MessageContext) {
    handled += ctx.message.seq > 0 ? 1 : 0;
  }
}

it('records the resume point at a small cost to dispatch throughput', async () => {
  const rig = await inProcessRig();
  const dir = mkdtempSync(join(tmpdir(), 'boardbot-bench-position-'));
  const base = { handlers: [Listener], logger: false as const, handleSignals: false as const };
  const none = await rig.bot({ ...base, position: false });
  const file = await rig.bot({ ...base, position: new FilePositionStore(dir) });
  let nextId = 1;
  // Events spread over the boards, as a bot sees them: the default ordering holds each board in line.
  const throughput = async (target: typeof none, n: number) => {
    const events = Array.from({ length: n }, (_, i) => ({
      name: 'message.create',
      id: String(nextId++),
      data: { type: 'message.create', message: rig.message(rig.boardIds[i % rig.boardIds.length]) },
    }));
    const before = handled;
    const start = performance.now();
    const cpu = process.cpuUsage();
    for (const e of events) target.gateway.emit('dispatch', e);
    await target.bot.idle();
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (handled - before !== n) throw new Error(`handled ${handled - before} of ${n}`);
    return { wall: (n * 1000) / ms, cpu: (n * 1e6) / (used.user + used.system) };
  };
  await throughput(none, 2000);
  await throughput(file, 2000);
  const without: number[] = [];
  const withFile: number[] = [];
  // Each round measures both, back to back, in alternating order; the ratio is the median of the
  // rounds' ratios, so a change in the machine's load between rounds cancels out.
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [a, b] = round % 2 === 0 ? [none, file] : [file, none];
    const first = await throughput(a, EVENTS);
    const second = await throughput(b, EVENTS);
    const [off, on] = a === none ? [first, second] : [second, first];
    without.push(off.wall);
    withFile.push(on.wall);
    ratios.push(on.wall / off.wall);
    cpuRatios.push(on.cpu / off.cpu);
  }
  await none.bot.stop();
  await file.bot.stop();
  await rig.close();
  rmSync(dir, { recursive: true, force: true });
  const spread = (xs: number[]) =>
    `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}/s over ${ROUNDS} rounds`;
  record(
    {
      bench: 'core: resume point',
      subject: 'dispatch, position: false (baseline: nothing recorded)',
      value: median(without),
      unit: 'events/s',
      ratio: 1,
      note: spread(without),
    },
    {
      bench: 'core: resume point',
      subject: 'dispatch, default file store',
      value: median(withFile),
      unit: 'events/s',
      ratio: median(ratios),
      note: `${spread(withFile)}; ratio: median of the rounds' ratios; target ≥ 0.9`,
    },
    {
      bench: 'core: resume point',
      subject: 'dispatch, default file store, per CPU second',
      value: median(cpuRatios),
      unit: '× of position: false',
      ratio: median(cpuRatios),
      note: 'events per CPU second of the process (its I/O threads included): median of the rounds',
    },
  );
}, 300_000);

it('times a restart: process start to the first missed event handled', async () => {
  buildFixtureBot();
  const s = await scenario();
  const alice = s.platform.person('alice');
  const first = s.startBot();
  await first.started();
  await first.stop();
  const samples: { started: number; handled: number }[] = [];
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 20; i++) await alice.say(`m round ${round} message ${i}`);
    const t0 = Date.now();
    const bot = s.startBot();
    const up = await bot.waitFor((l) => l.msg === 'bot started');
    const echo = await bot.waitFor((l) => l.msg === 'fixture first echo');
    samples.push({ started: (up.time as number) - t0, handled: (echo.at as number) - t0 });
    await bot.stop();
  }
  await s.close();
  record(
    {
      bench: 'core: resume point',
      subject: 'restart: process start → bot started',
      value: median(samples.map((x) => x.started)),
      unit: 'ms',
      note: 'median of 5 starts (node, imports, GET /app, command sync, gateway)',
    },
    {
      bench: 'core: resume point',
      subject: 'restart: process start → first missed event handled',
      value: median(samples.map((x) => x.handled)),
      unit: 'ms',
      note: 'median of 5 starts, 20 messages posted while down',
    },
  );
}, 300_000);
