// `node scripts/host-soak.mjs [--minutes 60] [--slice-seconds 300] [--rate 3] [--apps 20] [--replicas 4]
//   [--kill-every-seconds 300] [--restart-after-seconds 15] [--replica-node-flags=<flags>] [--json <file>] [--keep-logs]
//   [--no-build] [--help]`
//
// A host of apps over Redis left running under steady traffic, with a replica SIGKILLed and
// restarted now and then. One emulator (its own process, the platform's rate limit per app token),
// one redis-server, `--apps` apps each installed on a board of its own, and `--replicas` real
// `boardbot start --host <file> --redis <url>` processes (the CLI, its apps' module
// scripts/soak/host-app.mjs, scripts/soak/host-sampler.mjs preloaded to report memory over IPC).
// People post `--rate` operations per second in total, over every app's board: `ping <tag>`
// messages (60 %) and `/echo tag:<tag>` commands (40 %); every answer names its tag, so answers
// lost (none) and doubled (none) are counted on the platform once the traffic stopped.
//
// Every `--kill-every-seconds` (the first after half of it), the last replica's process is killed with SIGKILL (its apps move to
// the others) and a new one started in its place `--restart-after-seconds` later (it is handed its
// share back); the others live through the whole run, taking and handing over apps each time, so
// their heaps say whether moving apps leaks. Heap after GC is sampled per process every 20 s, and
// each process gets soak.mjs's verdict (scripts/soak/stats.mjs, `leakVerdict`) over its own life; the
// run's (`heap`) is that of the processes that lived the rule's 20-minute window (the run when shorter). The
// part of the heap that is V8's compiled code is reported beside it, to tell JIT growth from data kept.
// `--keep-logs` keeps each replica's log (`<tmp>/boardbot-host-soak-*/r<n>/log.jsonl`); `--no-build`
// skips the `tsc -b` of the packages it runs. `--replica-node-flags="--trace-deopt"` adds Node flags to every
// replica, `"a|b|c"` flags per slot (the first long-lived replica gets `a`...): a control beside the others.
// Per slice: operations sent, answers lost and doubled, kills, each replica's RSS and heap after GC,
// the event-loop delay p99, the load. The last line of output is the JSON report.
import { fork } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildUnlessTold, soakFlags } from './soak/command-line.mjs';
import { log, runDirectory, startEmulator, startRedis } from './soak/processes.mjs';
import { countAnswers, runSlices, settledCounts, steadyTraffic, tally } from './soak/settle.mjs';
import { leakVerdict, round, runVerdict } from './soak/stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const values = soakFlags(import.meta.url, {
  minutes: { type: 'string', default: '60' },
  'slice-seconds': { type: 'string', default: '300' },
  rate: { type: 'string', default: '3' },
  apps: { type: 'string', default: '20' },
  replicas: { type: 'string', default: '4' },
  'kill-every-seconds': { type: 'string', default: '300' },
  'restart-after-seconds': { type: 'string', default: '15' },
  'keep-logs': { type: 'boolean', default: false },
  'replica-node-flags': { type: 'string', default: '' },
});
const runMs = Number(values.minutes) * 60_000;
const sliceMs = Number(values['slice-seconds']) * 1000;
const rate = Number(values.rate);
const appCount = Number(values.apps);
const replicaCount = Number(values.replicas);
const killEveryMs = Number(values['kill-every-seconds']) * 1000;
const restartAfterMs = Number(values['restart-after-seconds']) * 1000;
if (
  ![runMs, sliceMs, rate, killEveryMs, restartAfterMs].every((x) => x > 0) ||
  !Number.isInteger(appCount) ||
  appCount < 1 ||
  !Number.isInteger(replicaCount) ||
  replicaCount < 2
) {
  console.error('every flag takes a positive number; --apps a whole number ≥ 1, --replicas ≥ 2');
  process.exit(2);
}
// Node flags per slot, `|` between slots ("a|b|c"); one group is every slot's.
const slotFlags = values['replica-node-flags'].split('|').map((group) => group.split(' ').filter(Boolean));
const nodeFlagsOf = (slot) => (slotFlags.length === 1 ? slotFlags[0] : (slotFlags[slot] ?? []));
const ADMIN = 'host-soak-admin-key';
const SAMPLE_MS = Math.min(20_000, sliceMs / 3);

buildUnlessTold(values, ['packages/cli', 'packages/emulator', 'packages/redis']);

const { dir, children } = runDirectory('boardbot-host-soak-', values['keep-logs']);

const urls = await startEmulator(join(dir, 'emulator.db'), ADMIN, children);
const { ControlClient } = await import(join(root, 'packages/emulator/dist/control/index.js'));
const control = new ControlClient({ url: urls.controlUrl, adminKey: ADMIN });
const redisUrl = await startRedis(children);

// The apps, each on a board of its own with two people; the host's file names their modules and tokens.
const apps = [];
for (let i = 0; i < appCount; i++) {
  const created = await control.createApp({ name: `soak-app-${i}` });
  const board = await control.createBoard({ name: `soak-app-${i}` });
  await control.install(created.app.id, board.id);
  const people = [];
  for (let k = 0; k < 2; k++) {
    const user = await control.createUser({ username: `soak-${i}-${k}` });
    await control.setMember(board.id, user.id);
    people.push(user.id);
  }
  apps.push({
    id: `app${i}`,
    appId: created.app.id,
    token: created.token,
    bot: created.app.bot_user_id,
    board,
    people,
  });
}
const hostFile = join(dir, 'hosts.json');
const module = join(root, 'scripts/soak/host-app.mjs');
writeFileSync(
  hostFile,
  JSON.stringify({ apps: apps.map((a, i) => ({ id: a.id, module, tokenEnv: `APP_TOKEN_${i}` })) }),
);
const tokens = Object.fromEntries(apps.map((a, i) => [`APP_TOKEN_${i}`, a.token]));

// ---- the replicas ----
const bin = join(root, 'packages/cli/dist/bin.js');
const samplerModule = join(root, 'scripts/soak/host-sampler.mjs');
let started = performance.now();
const minuteNow = () => (performance.now() - started) / 60_000;
/** Every replica process started: `{ name, slot, nodeFlags, child, bornMinute, diedMinute, memory }`. */
const processes = [];
let incarnations = 0;

/** Starts replica process `r<n>` in `slot`; resolves once it joined the host's replicas. */
async function startReplica(slot) {
  const name = `r${incarnations++}`;
  const cwd = join(dir, name);
  mkdirSync(cwd);
  const nodeFlags = nodeFlagsOf(slot);
  const child = fork(bin, ['start', '--host', hostFile, '--redis', redisUrl, '--replica-id', name], {
    cwd,
    execArgv: ['--expose-gc', ...nodeFlags, '--import', samplerModule],
    env: { ...process.env, ...tokens, BOARDBOT_API_URL: urls.apiUrl, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  children.push(child);
  const replica = { name, slot, nodeFlags, child, bornMinute: minuteNow(), diedMinute: null, memory: [], warnings: 0 };
  processes.push(replica);
  const file = createWriteStream(join(cwd, 'log.jsonl'));
  let buffered = '';
  const joined = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      file.write(chunk);
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const text of lines) {
        if (!text.startsWith('{')) continue;
        const line = JSON.parse(text);
        if (line.msg === 'host replica joined') resolve();
        if (line.level >= 40 && replica.warnings++ < 5) log(`${name}: ${text.slice(0, 300)}`);
      }
    });
    child.once('exit', (code, signal) => {
      replica.diedMinute ??= minuteNow();
      reject(new Error(`${name} exited (${code ?? signal}) before it joined`));
    });
  });
  await joined;
  return replica;
}

/** One replica's sample, or null when it died meanwhile or did not answer in 10 s. */
function sampleOf(replica) {
  const { child } = replica;
  // A process killed a moment ago may have no exit code yet, but its channel is closed.
  if (child.exitCode !== null || child.signalCode !== null || !child.connected) return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = (sample) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(sample);
    };
    const onMessage = (m) => m?.type === 'sample' && done(m.sample);
    const onExit = () => done(null);
    const timer = setTimeout(() => done(null), 10_000);
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ type: 'sample' }, (error) => error && done(null));
  });
}

const live = [];
for (let slot = 0; slot < replicaCount; slot++) live[slot] = await startReplica(slot);
// The run starts once every replica joined.
started = performance.now();
for (const replica of live) replica.bornMinute = 0;
log(
  `host soak: ${appCount} apps over ${replicaCount} replicas, ${rate} operations/s, ${runMs / 60_000} min; ` +
    `replica ${replicaCount - 1} killed every ${killEveryMs / 1000} s, restarted ${restartAfterMs / 1000} s later`,
);

// ---- traffic ----
const sliceOf = () => Math.min(Math.floor((performance.now() - started) / sliceMs), Math.ceil(runMs / sliceMs) - 1);
/** Expected answers, by `<kind> <tag>`, with their app and the slice they were asked in. */
const expected = new Map();
let nextTag = 0;
let inFlight = 0;
let failures = 0;

function operate() {
  const app = apps[Math.floor(Math.random() * apps.length)];
  const user = app.people[Math.floor(Math.random() * app.people.length)];
  const tag = `t${nextTag++}`;
  const command = Math.random() < 0.4;
  expected.set(`${command ? 'echo' : 'pong'} ${tag}`, { app, slice: sliceOf() });
  inFlight++;
  const sent = command
    ? control.invoke({ board_id: app.board.id, user_id: user, command: 'echo', options: { tag }, app_id: app.appId })
    : control.postMessage(app.board.id, { user_id: user, content: `ping ${tag}` });
  sent
    .catch((error) => {
      failures++;
      if (failures <= 5) log(`operation failed: ${error.message}`);
    })
    .finally(() => inFlight--);
}

const traffic = steadyTraffic(rate, 100, operate);

// ---- kills: the last slot's process, now and then, restarted a little later ----
const kills = [];
const killer = (async () => {
  const slot = replicaCount - 1;
  // Half a period off the slices' ends (a slice closes with every replica up, measured); no kill in
  // the run's last 10 s after a restart: the last replica started joins before the traffic stops.
  for (let at = killEveryMs / 2; at + restartAfterMs + 10_000 < runMs; at += killEveryMs) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + at - performance.now())));
    const victim = live[slot];
    victim.child.kill('SIGKILL');
    await new Promise((resolve) =>
      victim.child.exitCode === null && victim.child.signalCode === null
        ? victim.child.once('exit', resolve)
        : resolve(),
    );
    victim.diedMinute = minuteNow();
    kills.push({ slice: sliceOf(), minute: round(victim.diedMinute), killed: victim.name });
    // A replica that fails to join is reported and started again (three tries), the run going on.
    for (let tries = 1; live[slot] === victim; tries++) {
      await new Promise((resolve) => setTimeout(resolve, restartAfterMs));
      live[slot] = await startReplica(slot).catch((error) => {
        log(`${error.message}${tries < 3 ? ': starting it again' : ''}`);
        if (tries >= 3) throw error;
        return victim;
      });
    }
    log(`killed ${victim.name} (SIGKILL), started ${live[slot].name}`);
  }
})();

// ---- sampling ----
const slices = [];
let pending = [];
const sample = async () => {
  const current = [...live];
  const samples = await Promise.all(current.map(sampleOf));
  const at = minuteNow();
  current.forEach((replica, i) => {
    const s = samples[i];
    if (!s) return;
    // heapMb is what the verdict judges; the compiled code in it, beside.
    replica.memory.push({
      minute: at - replica.bornMinute,
      heapMb: s.heapUsed / 2 ** 20,
      codeMb: s.codeBytes / 2 ** 20,
    });
    pending.push(s);
  });
  return current.map((replica, i) => [replica, samples[i]]);
};
const sampler = setInterval(() => void sample(), SAMPLE_MS);
let sliceStart = performance.now();

async function closeSlice(index) {
  const now = await sample();
  const all = pending;
  pending = [];
  slices.push({
    slice: index,
    seconds: round((performance.now() - sliceStart) / 1000, 1),
    kills: kills.filter((k) => k.slice === index).length,
    replicas: now.map(([r]) => r.name),
    rssMb: now.map(([, s]) => (s ? round(s.rss / 2 ** 20, 1) : null)),
    heapMb: now.map(([, s]) => (s ? round(s.heapUsed / 2 ** 20, 1) : null)),
    codeMb: now.map(([, s]) => (s ? round(s.codeBytes / 2 ** 20, 1) : null)),
    loopDelayP99Ms: round(Math.max(0, ...all.map((s) => s.loopDelayP99Ms))),
    load: loadavg().map((x) => round(x)),
  });
  sliceStart = performance.now();
  log(`slice ${index}: ${JSON.stringify(slices.at(-1))}`);
}

await runSlices({ started, runMs, sliceMs }, { closeSlice, lastSlice: () => clearInterval(traffic) });
clearInterval(sampler);
await killer;

// ---- counting answers on the platform, each board's by its own app ----
const boards = apps.map((a) => ({ id: a.board.id, bot: a.bot }));
const countAll = () => countAnswers(control, boards, /^(echo|pong) (\S+)$/);
const counts = await settledCounts(countAll, expected, { inFlight: () => inFlight, tries: 60, patience: 10 });
for (const slice of slices) {
  const keys = [...expected].filter(([, e]) => e.slice === slice.slice).map(([k]) => k);
  Object.assign(slice, { sent: keys.length, ...tally(keys, counts) });
}

const endMinute = minuteNow();
const memory = processes.map((p) => ({
  replica: p.name,
  slot: p.slot,
  lifeMinutes: round((p.diedMinute ?? endMinute) - p.bornMinute, 1),
  killed: p.diedMinute !== null,
  nodeFlags: p.nodeFlags,
  // First and last samples of the whole heap and of its compiled code, beside the verdict.
  heapMb: [p.memory[0], p.memory.at(-1)].map((m) => m && round(m.heapMb)),
  codeMb: [p.memory[0], p.memory.at(-1)].map((m) => m && round(m.codeMb)),
  ...leakVerdict(p.memory, (p.diedMinute ?? endMinute) - p.bornMinute),
  // Every sample, `[minute, heap MB, compiled code MB]`: the curves behind the verdict.
  series: p.memory.map((m) => [round(m.minute), round(m.heapMb, 3), round(m.codeMb, 3)]),
}));
// The run's verdict: that of the processes that lived the rule's window (stats.mjs, `runVerdict`).
const heap = runVerdict(memory, runMs / 60_000);
const report = {
  node: process.version,
  apps: appCount,
  replicas: replicaCount,
  rate,
  minutes: runMs / 60_000,
  sliceSeconds: sliceMs / 1000,
  sent: nextTag,
  answered: [...expected.keys()].filter((k) => counts.has(k)).length,
  lost: slices.reduce((s, x) => s + x.lost, 0),
  doubled: slices.reduce((s, x) => s + x.doubled, 0),
  failures,
  kills: kills.length,
  lostAnswers: [...expected.keys()].filter((k) => !counts.has(k)).slice(0, 10),
  doubledAnswers: [...expected.keys()].filter((k) => (counts.get(k) ?? 0) > 1).slice(0, 10),
  slices,
  // Each process's heap after GC over its own life: the verdict of soak.mjs.
  memory,
  // The run's heap verdict: that of the processes that lived the rule's window.
  heap,
};
log(
  `heap: ${heap.verdict}, by the rule over the last ${heap.windowMinutes} minutes of ${heap.judged.join(', ') || 'no process'} ` +
    `(the processes that lived that long; ${memory.length - heap.judged.length} shorter-lived judged on their warm-up in the report)`,
);
if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify(report));
for (const p of live) p.child.kill('SIGTERM');
await Promise.all(
  live.map((p) => (p.child.exitCode === null ? new Promise((resolve) => p.child.once('exit', resolve)) : undefined)),
);
process.exit(0);
