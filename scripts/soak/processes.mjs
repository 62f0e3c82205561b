// The soak's processes (scripts/soak.mjs, scripts/host-soak.mjs): the run's directory, the emulator,
// redis-server for replicas, the bots, and the samples the bots report. Each started process is pushed on `children`, which the soak kills
// on exit.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Resolves with the first JSON line of a child's stdout. */
function firstJson(child) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}

/**
 * Starts the emulator (built) in its own process: a database file, the default rate limit.
 * @returns its URLs (`apiUrl`, `controlUrl`, …)
 */
export async function startEmulator(db, adminKey, children) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { createEmulator } from './packages/emulator/dist/index.js';
       const emu = await createEmulator({ db: ${JSON.stringify(db)}, logger: false, adminKey: ${JSON.stringify(adminKey)} });
       const urls = await emu.listen({ host: '127.0.0.1', port: 0 });
       console.log(JSON.stringify(urls));`,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  return firstJson(child);
}

/** Starts a redis-server on a free port, nothing saved; resolves with its URL once it accepts. */
export async function startRedis(children) {
  const port = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(redis);
  await new Promise((resolve) => redis.stdout.on('data', (d) => String(d).includes('Ready to accept') && resolve()));
  return `redis://127.0.0.1:${port}`;
}

/** Forks one bot process (scripts/soak/soak-bot.mjs) with `env`; resolves with it once started. */
export async function startBot(env, children) {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
  const bot = fork(join(root, 'scripts/soak/soak-bot.mjs'), [], {
    cwd: root,
    execArgv: ['--expose-gc'],
    env: { ...process.env, ...defined },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(bot);
  await new Promise((resolve, reject) => {
    bot.on('message', (m) => m?.type === 'ready' && resolve());
    bot.once('exit', (code) => reject(new Error(`the bot exited with ${code} before it was ready`)));
  });
  return bot;
}

/** Asks every bot process for its sample (see soak-bot.mjs); resolves with them. */
export function sampleBots(bots) {
  return Promise.all(
    bots.map(
      (bot) =>
        new Promise((resolve) => {
          const onMessage = (m) => {
            if (m?.type !== 'sample') return;
            bot.off('message', onMessage);
            resolve(m.sample);
          };
          bot.on('message', onMessage);
          bot.send({ type: 'sample' });
        }),
    ),
  );
}

/**
 * The run's temporary directory and the list of the processes it starts: on exit (or Ctrl-C) the
 * processes still running are SIGKILLed and the directory is removed, unless `keep`.
 * @param prefix - the directory's name before the random part (`boardbot-soak-`)
 * @param keep - leave the directory (its logs) in place @defaultValue false
 */
export function runDirectory(prefix, keep = false) {
  const children = [];
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (!keep) rmSync(dir, { recursive: true, force: true });
  });
  process.on('SIGINT', () => process.exit(130));
  return { dir, children };
}

/** A line on stderr, stamped with the time (the soak's progress; stdout carries the report). */
export const log = (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
