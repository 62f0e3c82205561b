// `node scripts/soak.mjs [--minutes 30] [--slice-seconds 300] [--rate 40] [--replicas 1] [--json <file>]
//   [--log-level warn] [--no-build] [--help]`
//
// A bot left running under steady mixed traffic, as an operator's would be, and what it looks like
// slice after slice. An emulator (its own process, a SQLite file that grows through the run, the
// platform's rate limit of 50 requests/s per app token) and the bot (scripts/soak/soak-bot.mjs, its
// own process; with --replicas N, N of them sharing a redis-server started here) take `--rate`
// operations per second from the people this script plays through the control API: /echo commands
// (30%), `ping` messages (30%), messages edited to `edit` (20%), two-message conversations (10%, one
// at a time per person, who posts nothing else meanwhile: a conversation takes the person's next
// message on the board as its answer, whatever it says), messages posted then deleted (10%), and the
// bot's own 5 s schedule. Every answer names the tag of
// what it answers, so answers lost (none) and doubled (more than one) are counted on the platform.
//
// Per slice: the bot's RSS and heap after a forced GC, its event-loop delay p99, the /echo round
// trip p50/p99 (invoke → answer stored, through the control API), answers lost and doubled, and the
// p99 of the bot's own handling time apart from the emulator's share (each handler's time minus the
// time it waited on its REST calls). Heap after GC is sampled every 20 s (a third of a slice when
// shorter); the verdict on a leak is the least-squares slope over the last 20 minutes (the whole run
// when shorter): "leak" when its 95% confidence interval is above zero and the growth it predicts
// over that window exceeds twice the samples' own scatter around the line (the run's noise), else
// "no leak". The slices show the part of the heap that is V8's compiled code beside it. The last line of output is
// the JSON report. The bots log to stdout at `--log-level` (`info` logs each run, to find what became
// of a lost answer). Not part of `npm test`; test/soak/soak-script.test.ts runs it for two slices of 15 s.

import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildUnlessTold, soakFlags } from './soak/command-line.mjs';
import { log, runDirectory, sampleBots, startBot, startEmulator, startRedis } from './soak/processes.mjs';
import { countAnswers, runSlices, settledCounts, steadyTraffic, tally } from './soak/settle.mjs';
import { leakVerdict, percentile, round } from './soak/stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const values = soakFlags(import.meta.url, {
  minutes: { type: 'string', default: '30' },
  'slice-seconds': { type: 'string', default: '300' },
  rate: { type: 'string', default: '40' },
  replicas: { type: 'string', default: '1' },
  'log-level': { type: 'string', default: 'warn' },
});
const runMs = Number(values.minutes) * 60_000;
const sliceMs = Number(values['slice-seconds']) * 1000;
const rate = Number(values.rate);
const replicas = Number(values.replicas);
if (!(runMs > 0) || !(sliceMs > 0) || !(rate > 0) || !Number.isInteger(replicas) || replicas < 1) {
  console.error('--minutes, --slice-seconds and --rate take positive numbers, --replicas a whole number ≥ 1');
  process.exit(2);
}
const ADMIN = 'soak-admin-key';
// Heap samples for the slope: every 20 s, more often in a run of short slices (a test).
const SAMPLE_MS = Math.min(20_000, sliceMs / 3);

buildUnlessTold(values, ['packages/core', 'packages/emulator', 'packages/redis']);

const { dir, children } = runDirectory('boardbot-soak-');

const urls = await startEmulator(join(dir, 'emulator.db'), ADMIN, children);
const { ControlClient } = await import(join(root, 'packages/emulator/dist/control/index.js'));
const control = new ControlClient({ url: urls.controlUrl, adminKey: ADMIN });

const redisUrl = replicas > 1 ? await startRedis(children) : undefined;

// People and boards: 4 boards with the bot installed, 2 people on each.
const apps = await control.apps();
const app = apps.find((a) => a.name === 'dev-bot');
const people = [];
for (let b = 0; b < 4; b++) {
  const board = await control.createBoard({ name: `soak-${b}` });
  await control.install(app.id, board.id);
  for (let k = 0; k < 2; k++) {
    const user = await control.createUser({ username: `soak-${b}-${k}` });
    await control.setMember(board.id, user.id);
    people.push({ user: user.id, board: board.id });
  }
}
const boards = [...new Set(people.map((p) => p.board))];

// The bot, or its replicas.
const bots = [];
for (let i = 0; i < replicas; i++) {
  const env = {
    BOARDBOT_API_URL: urls.apiUrl,
    BOARDBOT_STATE_DIR: join(dir, `bot-${i}`),
    BOARDBOT_REDIS_URL: redisUrl,
    SOAK_LOG_LEVEL: values['log-level'],
  };
  bots.push(await startBot(env, children));
}
const botUserId = app.bot_user_id;
log(`soak: ${replicas} bot process(es), ${rate} operations/s, ${runMs / 60_000} min in slices of ${sliceMs / 1000} s`);

// ---- traffic ----
const started = performance.now();
const sliceOf = () => Math.min(Math.floor((performance.now() - started) / sliceMs), Math.ceil(runMs / sliceMs) - 1);
/** Expected answers, by `<kind> <tag>`, with the slice they were asked in. */
const expected = new Map();
let nextTag = 0;
let inFlight = 0;
let skipped = 0;
let failures = 0;
let deletesSent = 0;
const roundTrips = [];
/** Each person's last conversation, which the next one waits for. */
const talking = new Map();
/**
 * People with a conversation under way or waiting to start, by how many: a conversation takes the
 * person's next message on the board as its answer, whatever it says, so such a person posts nothing
 * else until it ends (the other operations pick another person).
 */
const conversing = new Map();
/** Each person's other operations under way, which a conversation waits for before its `!ask`. */
const busy = new Map();

/** Resolves once the bot's `text` is on the person's board (or after 10 s: then it counts as lost). */
async function answered(who, text) {
  const until = performance.now() + 10_000;
  while (performance.now() < until) {
    const recent = await control.messages(who.board, { limit: 50 });
    if (recent.some((m) => m.author === botUserId && m.content === text)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A two-message conversation: `!ask <tag>`, then `answer <tag>`, answered `thanks <tag>`. */
const converse = (tag, who) => {
  // The board's messages are handled in order: the answer finds the conversation its `!ask` opened.
  // A person has one conversation at a time (its session is per person on a board): the next waits
  // until the last one's answer is in.
  conversing.set(who, (conversing.get(who) ?? 0) + 1);
  const turn = (talking.get(who) ?? Promise.resolve()).then(async () => {
    await Promise.allSettled(busy.get(who) ?? []);
    expected.set(`thanks ${tag}`, sliceOf());
    await control.postMessage(who.board, { user_id: who.user, content: `!ask ${tag}` });
    await control.postMessage(who.board, { user_id: who.user, content: `answer ${tag}` });
    await answered(who, `thanks ${tag}`);
  });
  const ended = turn
    .catch(() => {})
    .then(() => {
      const left = (conversing.get(who) ?? 1) - 1;
      if (left === 0) conversing.delete(who);
      else conversing.set(who, left);
    });
  talking.set(who, ended);
  return turn;
};

const operations = [
  [
    0.3,
    async (tag, who) => {
      expected.set(`echo ${tag}`, sliceOf());
      const t = performance.now();
      await control.invokeAndWait(
        { board_id: who.board, user_id: who.user, command: 'echo', options: { tag } },
        { answers: 1, timeoutMs: 10_000 },
      );
      roundTrips.push([sliceOf(), performance.now() - t]);
    },
  ],
  [
    0.3,
    async (tag, who) => {
      expected.set(`pong ${tag}`, sliceOf());
      await control.postMessage(who.board, { user_id: who.user, content: `ping ${tag}` });
    },
  ],
  [
    0.2,
    async (tag, who) => {
      const draft = await control.postMessage(who.board, { user_id: who.user, content: `draft ${tag}` });
      expected.set(`edited ${tag}`, sliceOf());
      await control.editMessage(who.board, draft.id, `edit ${tag}`);
    },
  ],
  [0.1, converse],
  [
    0.1,
    async (tag, who) => {
      const note = await control.postMessage(who.board, { user_id: who.user, content: `note ${tag}` });
      await control.deleteMessage(who.board, note.id);
      deletesSent++;
    },
  ],
];

function operate() {
  if (inFlight >= 200) {
    skipped++;
    return;
  }
  let r = Math.random();
  let op = operations[operations.length - 1][1];
  for (const [weight, fn] of operations) {
    if (r < weight) {
      op = fn;
      break;
    }
    r -= weight;
  }
  const conversation = op === converse;
  const free = conversation ? people : people.filter((p) => !conversing.has(p));
  if (free.length === 0) {
    skipped++;
    return;
  }
  const who = free[Math.floor(Math.random() * free.length)];
  inFlight++;
  const done = op(`t${nextTag++}`, who)
    .catch((error) => {
      failures++;
      if (failures <= 5) log(`operation failed: ${error.message}`);
    })
    .finally(() => inFlight--);
  if (!conversation) {
    const mine = busy.get(who) ?? new Set();
    busy.set(who, mine);
    mine.add(done);
    done.finally(() => mine.delete(done));
  }
}

const traffic = steadyTraffic(rate, 50, operate);

// ---- sampling ----
const slices = [];
const memory = [];
let sliceStart = performance.now();
const sampler = setInterval(async () => {
  const samples = await sampleBots(bots);
  memory.push({
    minute: (performance.now() - started) / 60_000,
    heapMb: samples.reduce((s, x) => s + x.heapUsed, 0) / 2 ** 20,
  });
  pending.push(...samples);
}, SAMPLE_MS);
let pending = [];

async function closeSlice(index) {
  const samples = await sampleBots(bots);
  const all = [...pending, ...samples];
  pending = [];
  const runs = all.flatMap((s) => s.runs);
  const trips = roundTrips.filter(([s]) => s === index).map(([, ms]) => ms);
  slices.push({
    slice: index,
    seconds: round((performance.now() - sliceStart) / 1000, 1),
    rssMb: samples.map((s) => round(s.rss / 2 ** 20, 1)),
    heapMb: samples.map((s) => round(s.heapUsed / 2 ** 20, 1)),
    codeMb: samples.map((s) => round(s.codeBytes / 2 ** 20, 1)),
    loopDelayP99Ms: round(Math.max(...all.map((s) => s.loopDelayP99Ms))),
    roundTripMs: { p50: round(percentile(trips, 50)), p99: round(percentile(trips, 99)), n: trips.length },
    handlerMs: {
      ownP99: round(
        percentile(
          runs.map(([total, rest]) => total - rest),
          99,
        ),
        3,
      ),
      emulatorP99: round(
        percentile(
          runs.map(([, rest]) => rest),
          99,
        ),
        3,
      ),
      n: runs.length,
    },
    ticks: samples.reduce((s, x) => s + x.ticks, 0),
    load: loadavg().map((x) => round(x)),
  });
  sliceStart = performance.now();
  log(`slice ${index}: ${JSON.stringify(slices.at(-1))}`);
}

await runSlices({ started, runMs, sliceMs }, { closeSlice, lastSlice: () => clearInterval(traffic) });
clearInterval(sampler);

// ---- counting answers on the platform ----
const countAll = () =>
  countAnswers(
    control,
    boards.map((id) => ({ id, bot: botUserId })),
    /^(echo|pong|edited|thanks) (\S+)$/,
  );
const counts = await settledCounts(countAll, expected, { inFlight: () => inFlight, tries: 30, patience: 5 });
const finalSamples = await sampleBots(bots);
for (const slice of slices) {
  const keys = [...expected].filter(([, s]) => s === slice.slice).map(([k]) => k);
  Object.assign(slice, tally(keys, counts));
}

// ---- the memory verdict ----
const memoryVerdict = leakVerdict(memory, runMs / 60_000);

const report = {
  node: process.version,
  replicas,
  rate,
  minutes: runMs / 60_000,
  sliceSeconds: sliceMs / 1000,
  operations: nextTag,
  skipped,
  failures,
  deletes: { sent: deletesSent, seen: finalSamples.reduce((s, x) => s + x.deletes, 0) },
  ticks: finalSamples.reduce((s, x) => s + x.ticks, 0),
  lost: slices.reduce((s, x) => s + x.lost, 0),
  doubled: slices.reduce((s, x) => s + x.doubled, 0),
  // The first few, to look them up on the platform.
  lostAnswers: [...expected.keys()].filter((k) => !counts.has(k)).slice(0, 10),
  doubledAnswers: [...expected.keys()].filter((k) => (counts.get(k) ?? 0) > 1).slice(0, 10),
  slices,
  memory: memoryVerdict,
  ownP99Ratio:
    slices.length > 1 && slices[0].handlerMs.ownP99
      ? round(slices.at(-1).handlerMs.ownP99 / slices[0].handlerMs.ownP99)
      : null,
};
if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify(report));
for (const bot of bots) bot.kill('SIGTERM');
await Promise.all(bots.map((bot) => (bot.exitCode === null ? new Promise((r) => bot.once('exit', r)) : undefined)));
process.exit(0);
