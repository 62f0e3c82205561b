import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '@boardbot/cli';
import { createProgram, runEmulator } from '@boardbot/cli/internal';
import { buildProjects } from '@boardbot/test-support';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'packages/cli/dist/bin.js');

/** I/O of a command run in-process: captured lines, a given environment, signals raised by the test. */
function testIo(env: Record<string, string> = {}) {
  const signals = new EventEmitter();
  const lines: string[] = [];
  const errors: string[] = [];
  let exitCode: number | undefined;
  const io: CliIo = {
    out: (l) => lines.push(l),
    err: (l) => errors.push(l),
    env,
    onSignal: (handler) => {
      signals.on('signal', handler);
      return () => signals.off('signal', handler);
    },
    exit: (code) => {
      exitCode = code;
    },
  };
  return { io, lines, errors, signal: (s: NodeJS.Signals) => signals.emit('signal', s), exitCode: () => exitCode };
}

const running: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

describe('boardbot emulator (in process)', () => {
  it('refuses --host 0.0.0.0 with the default dev-token, then starts with real ones from the environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'boardbot-exposed-cli-'));
    try {
      const options = { host: '0.0.0.0', port: 0, db: 'emulator.db', seed: true, cwd: dir };
      const refused = testIo({ BOARDBOT_ADMIN_KEY: 'a-real-admin-key-of-32-characters' });
      await expect(runEmulator(options, refused.io)).rejects.toMatchObject({
        code: 'BOARDBOT_EMULATOR_EXPOSED_DEFAULTS',
        message: expect.stringContaining('BOARDBOT_TOKEN'),
      });
      const real = testIo({
        BOARDBOT_TOKEN: 'a-real-app-token-of-32-characters',
        BOARDBOT_ADMIN_KEY: 'a-real-admin-key-of-32-characters',
      });
      // The refused start closed the database: the same file opens again.
      const { emulator } = await runEmulator(options, real.io);
      running.push({ stop: () => emulator.close() });
      expect(emulator.app.server.listening).toBe(true);
    } finally {
      for (const r of running.splice(0)) await r.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints the API URL, the playground URL with the key and the key; uses BOARDBOT_TOKEN and BOARDBOT_ADMIN_KEY', async () => {
    const t = testIo({ BOARDBOT_TOKEN: 'my-bot-token', BOARDBOT_ADMIN_KEY: 'my-admin-key' });
    const { emulator, stopped } = await runEmulator({ host: '127.0.0.1', port: 0, db: ':memory:', seed: true }, t.io);
    running.push({ stop: () => emulator.close() });
    const url = emulator.urls?.url as string;
    const output = t.lines.join('\n');
    expect(output).toContain(`API base URL  ${url}/api/v1`);
    expect(output).toContain(`Playground    ${url}/?key=my-admin-key`);
    expect(output).toContain('Admin key     my-admin-key');
    expect(output).not.toContain('my-bot-token');
    const app = await fetch(`${url}/api/v1/app`, { headers: { authorization: 'Bearer my-bot-token' } });
    expect(((await app.json()) as { name: string }).name).toBe('dev-bot');
    const state = await fetch(`${url}/_emulator/v1/state?key=my-admin-key`);
    expect(state.status).toBe(200);

    t.signal('SIGTERM');
    await stopped;
    expect(t.exitCode()).toBe(0);
    expect(t.lines.at(-1)).toBe('Stopped.');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  // docs/cli.md: the project's .env is read by every command, and its BOARDBOT_TOKEN becomes the
  // seeded dev-bot's token, so the same .env works against the emulator.
  it("gives dev-bot the token of the project's .env, unless the environment has one (emulator ignored .env)", async () => {
    const project = mkdtempSync(join(tmpdir(), 'boardbot-emulator-env-'));
    running.push({ stop: async () => rmSync(project, { recursive: true, force: true }) });
    writeFileSync(join(project, '.env'), 'BOARDBOT_TOKEN=token-from-dotenv\nBOARDBOT_ADMIN_KEY=key-from-dotenv\n');
    const appName = async (url: string, token: string) => {
      const r = await fetch(`${url}/api/v1/app`, { headers: { authorization: `Bearer ${token}` } });
      return r.status === 200 ? ((await r.json()) as { name: string }).name : r.status;
    };

    const t = testIo();
    const program = createProgram(t.io, { exitOverride: true });
    const run = program.parseAsync(['node', 'boardbot', 'emulator', '-C', project, '--port', '0', '--db', ':memory:']);
    while (!t.lines.some((l) => l.startsWith('Press Ctrl+C'))) await new Promise((r) => setTimeout(r, 10));
    const url = (/API base URL {2}(\S+)/.exec(t.lines.join('\n'))?.[1] as string).replace('/api/v1', '');
    expect(await appName(url, 'token-from-dotenv')).toBe('dev-bot');
    expect(await appName(url, 'dev-token')).toBe(401);
    expect(t.lines.join('\n')).toContain('Admin key     key-from-dotenv');
    expect(t.lines.join('\n')).toContain('dev-bot token from BOARDBOT_TOKEN in .env');
    expect(t.lines.join('\n')).not.toContain('token-from-dotenv');
    t.signal('SIGTERM');
    await run;

    const env = testIo({ BOARDBOT_TOKEN: 'token-from-env' });
    const { emulator } = await runEmulator(
      { host: '127.0.0.1', port: 0, db: ':memory:', seed: true, cwd: project },
      env.io,
    );
    running.push({ stop: () => emulator.close() });
    expect(await appName(emulator.urls?.url as string, 'token-from-env')).toBe('dev-bot');
    expect(await appName(emulator.urls?.url as string, 'token-from-dotenv')).toBe(401);
  });

  it('starts without the seed with --no-seed, and rejects a bad port', async () => {
    const t = testIo();
    const program = createProgram(t.io, { exitOverride: true });
    const run = program.parseAsync(['node', 'boardbot', 'emulator', '--port', '0', '--db', ':memory:', '--no-seed']);
    while (!t.lines.some((l) => l.startsWith('Press Ctrl+C'))) await new Promise((r) => setTimeout(r, 10));
    const url = /API base URL {2}(\S+)/.exec(t.lines.join('\n'))?.[1] as string;
    const state = await fetch(`${url.replace('/api/v1', '')}/_emulator/v1/state`, {
      headers: { authorization: `Bearer ${/Admin key {5}(\S+)/.exec(t.lines.join('\n'))?.[1]}` },
    });
    expect(await state.json()).toEqual({ users: [], boards: [], apps: [] });
    t.signal('SIGINT');
    await run;
    expect(t.exitCode()).toBe(0);

    const bad = testIo();
    await expect(
      createProgram(bad.io, { exitOverride: true }).parseAsync(['node', 'boardbot', 'emulator', '--port', 'http']),
    ).rejects.toThrow(/port/);
    expect(bad.errors.join('\n')).toMatch(/Expected a port number/);
  });
});

describe('boardbot emulator (a real process)', () => {
  beforeAll(() => buildProjects('packages/cli'), 180_000);

  function start(): Promise<{ proc: ChildProcess; url: string; out: () => string }> {
    return new Promise((resolve, reject) => {
      const proc = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--db', ':memory:'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, BOARDBOT_ADMIN_KEY: 'k' },
      });
      let out = '';
      proc.stdout?.on('data', (d) => {
        out += d.toString();
        const url = /Playground {4}(http:\/\/\S+)\/\?key=k/.exec(out)?.[1];
        if (url && out.includes('Press Ctrl+C')) resolve({ proc, url, out: () => out });
      });
      proc.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
  }

  it('shuts down cleanly on SIGTERM: open streams end and the process exits 0', async () => {
    const { proc, url, out } = await start();
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
    const ended = new Promise<string>((resolve, reject) => {
      const req = request(`${url}/api/v1/gateway`, { headers: { authorization: 'Bearer dev-token' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
          if (body.includes('event: ready')) proc.kill('SIGTERM');
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    expect(await ended).toContain('event: ready');
    expect(await exited).toBe(0);
    expect(out()).toContain('Stopped.');
  });
});
