// `node scripts/idle-start.mjs [--starts 5] [--idle-seconds 60]`: a bot as its operator sees it.
// The dice example (examples/dice, built) runs under `boardbot start` against an emulator of its own
// (in another process, in memory). Each round: a fresh emulator; a first start, whose commands are
// new (cold); it is stopped; a second start, whose commands are unchanged, left idle for
// `--idle-seconds`, then its RSS as `ps` shows it. "Start to ready" is from the spawn of `boardbot
// start` to its `bot started` line (commands in sync, gateway open), read on the parent's clock.
// Prints one JSON line per round, then the medians. Not part of `npm test` (it takes minutes).
// `--profile` (Linux): each round also says where the idle bot's memory is (mappings, V8's heap
// spaces, Node's binary pages by symbol: scripts/idle-profile.mjs), and a bare Node idles as long
// and is profiled the same way, to tell Node's own part from the bot's.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { profileOf, profilePreload } from './idle-profile.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    starts: { type: 'string', default: '5' },
    'idle-seconds': { type: 'string', default: '60' },
    profile: { type: 'boolean', default: false },
  },
});
const starts = Number(values.starts);
const idleMs = Number(values['idle-seconds']) * 1000;
if (!Number.isInteger(starts) || starts < 1 || !(idleMs >= 0)) {
  console.error('--starts takes a whole number ≥ 1 and --idle-seconds a number ≥ 0');
  process.exit(2);
}

execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/cli', 'examples/dice'], {
  cwd: root,
  stdio: 'inherit',
});

/** Resolves with the first stdout line of `proc` that `match` accepts (parsed when JSON), and when. */
function lineOf(proc, match) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (!match(line)) continue;
        proc.stdout.off('data', onData);
        resolve({ at: performance.now(), line });
        return;
      }
    };
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`process exited with ${code} before the line was printed`)));
  });
}

/** Starts an in-memory emulator in a child process; its API URL and the process. */
async function emulator() {
  const code = `
    import { createEmulator } from './packages/emulator/dist/index.js';
    const emu = await createEmulator({ db: ':memory:', logger: false });
    const { apiUrl } = await emu.listen({ host: '127.0.0.1', port: 0 });
    console.log(JSON.stringify({ apiUrl }));`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { line } = await lineOf(proc, (l) => l.startsWith('{"apiUrl"'));
  return { proc, apiUrl: JSON.parse(line).apiUrl };
}

/** Spawns `boardbot start` on the dice bot; resolves once it printed `bot started`, with the time it took. */
async function start(apiUrl, stateDir, nodeArgs = []) {
  const began = performance.now();
  const proc = spawn(
    process.execPath,
    [...nodeArgs, join(root, 'packages/cli/dist/bin.js'), 'start', '--cwd', join(root, 'examples/dice')],
    {
      cwd: root,
      env: {
        ...process.env,
        BOARDBOT_TOKEN: 'dev-token',
        BOARDBOT_API_URL: apiUrl,
        BOARDBOT_STATE_DIR: stateDir,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const { at } = await lineOf(proc, (l) => l.includes('"msg":"bot started"'));
  return { proc, ms: at - began };
}

/** Stops a process with SIGTERM and waits for its exit. */
function stop(proc) {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

/** RSS in MB of a process, as `ps` shows it. */
const rssOf = (pid) =>
  Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rounds = [];
for (let i = 0; i < starts; i++) {
  const emu = await emulator();
  const stateDir = mkdtempSync(join(tmpdir(), 'boardbot-idle-'));
  try {
    const cold = await start(emu.apiUrl, stateDir);
    await stop(cold.proc);
    const preload = values.profile ? profilePreload(stateDir) : undefined;
    const warm = await start(emu.apiUrl, stateDir, preload?.args);
    const early = rssOf(warm.proc.pid);
    await new Promise((r) => setTimeout(r, idleMs));
    const idle = rssOf(warm.proc.pid);
    const profile = preload ? await profileOf(warm.proc, preload.report) : undefined;
    await stop(warm.proc);
    const round = {
      coldMs: cold.ms,
      unchangedMs: warm.ms,
      rssAtReadyMb: early,
      rssIdleMb: idle,
      ...(profile && { profile }),
    };
    console.log(JSON.stringify(round));
    rounds.push(round);
  } finally {
    await stop(emu.proc);
    rmSync(stateDir, { recursive: true, force: true });
  }
}
if (values.profile) {
  // Bare Node, idle as long, profiled the same way.
  const dir = mkdtempSync(join(tmpdir(), 'boardbot-idle-'));
  const preload = profilePreload(dir);
  const bare = spawn(process.execPath, [...preload.args, '-e', 'console.log("ready"); setInterval(() => {}, 1e9)'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await lineOf(bare, (l) => l === 'ready');
    await new Promise((r) => setTimeout(r, idleMs));
    console.log(
      JSON.stringify({ bareNode: { rssIdleMb: rssOf(bare.pid), profile: await profileOf(bare, preload.report) } }),
    );
  } finally {
    await stop(bare);
    rmSync(dir, { recursive: true, force: true });
  }
}
const spread = (xs) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
const summary = {};
for (const key of ['coldMs', 'unchangedMs', 'rssAtReadyMb', 'rssIdleMb']) {
  const xs = rounds.map((r) => r[key]);
  summary[key] = { median: Number(median(xs).toFixed(1)), spread: spread(xs) };
}
console.log(
  JSON.stringify({
    node: process.version,
    starts,
    idleSeconds: idleMs / 1000,
    load: (await import('node:os')).loadavg(),
    summary,
  }),
);
