import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { runCli } from '@boardbot/cli';
import { buildProjects, eventuallyValue, startRedisServer, vacantPort } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectOutput } from './support/child-output.js';
import { Control, POLL } from './support/control.js';
import { buildFixtureProject, createFixtureProject, type FixtureProject } from './support/fixture-project.js';
import { testIo } from './support/test-io.js';

// Runs the built CLI: build it first (a no-op when up to date), so it is never a stale build.
beforeAll(() => buildProjects('packages/cli'), 180_000);

// The built CLI, as a person runs it (`npm test` builds it first).
const bin = new URL('../dist/bin.js', import.meta.url).pathname;

// Preloaded into the CLI's process: as it exits, writes down each garbage collection forced in it
// (the bot itself forces none), with its kind, from Node's `gc` performance entries.
const FORCED_GC_OBSERVER = `
import { writeSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
const seen = [];
const observer = new PerformanceObserver((list) => seen.push(...list.getEntries()));
observer.observe({ entryTypes: ['gc'] });
process.on('exit', () => {
  for (const entry of [...seen, ...observer.takeRecords()]) {
    if (entry.detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) writeSync(1, 'forced gc: ' + entry.detail.kind + '\\n');
  }
});`;

describe('boardbot start', () => {
  let project: FixtureProject;
  let emu: SeededEmulator;
  let control: Control;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    project = createFixtureProject('start');
    await buildFixtureProject(project);
    emu = await startSeededEmulator({ devToken: 'start-token' });
    control = new Control(emu.urls.controlUrl, emu.emu.adminKey);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await emu?.close();
    project?.remove();
  });

  it('runs the built bot with the token from .env and stops gracefully on SIGTERM with exit code 0', async () => {
    project.write('.env', `BOARDBOT_TOKEN=start-token\nBOARDBOT_API_URL=${emu.urls.apiUrl}\nLOG_LEVEL=warn\n`);
    const { PATH, HOME } = process.env;
    child = spawn(process.execPath, [bin, 'start'], { cwd: project.dir, env: { PATH, HOME }, stdio: 'pipe' });
    const output = collectOutput(child);
    const exited = once(child, 'exit');
    const view = await control.firstAnswer('ping', { text: 'prod' });
    expect(view.answers[0]?.content).toBe('pong v1 prod');
    // The bot answered from the CLI's own process: it started no child (docs/cli.md, production.md).
    const children = spawnSync('ps', ['--ppid', String(child.pid), '-o', 'pid='], { encoding: 'utf8' });
    expect(children.stdout.trim()).toBe('');
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code, output()).toBe(0);
    expect(output()).not.toContain('start-token');
  });

  it('rejects a --redis that is not a Redis URL with exit code 2', async () => {
    const io = testIo(project.dir, { BOARDBOT_TOKEN: 'x' });
    expect(await runCli(['node', 'boardbot', 'start', '--redis', 'localhost:6379'], io)).toBe(2);
    expect(io.errors.join('\n')).toContain('--redis must be a Redis URL');
  });

  it('runs the bot as a replica with --redis: it joins through Redis and answers', async () => {
    await buildProjects('packages/redis');
    const redis = await startRedisServer();
    try {
      project.write('.env', `BOARDBOT_TOKEN=start-token\nBOARDBOT_API_URL=${emu.urls.apiUrl}\nLOG_LEVEL=info\n`);
      const { PATH, HOME } = process.env;
      const replica = spawn(process.execPath, [bin, 'start', '--redis', redis.url], {
        cwd: project.dir,
        env: { PATH, HOME },
        stdio: 'pipe',
      });
      let output = '';
      replica.stdout?.on('data', (d) => {
        output += d;
      });
      const exited = once(replica, 'exit');
      await eventuallyValue(
        async () => output,
        (text) => text.includes('replica joined'),
        POLL,
      );
      const view = await eventuallyValue(
        () => control.invoke('ping', { text: 'replica' }),
        (v) => v.answers.length > 0,
        POLL,
      );
      expect(view.answers[0]?.content).toBe('pong v1 replica');
      expect(output).toContain('running as a replica');
      replica.kill('SIGTERM');
      const [code] = await exited;
      expect(code, output).toBe(0);
      expect(output).toContain('replica left');
    } finally {
      await redis.close();
    }
  });

  it('gives back the memory the start used with one full collection once the bot has started, none with --no-gc-after-start', async () => {
    project.write('.env', `BOARDBOT_TOKEN=start-token\nBOARDBOT_API_URL=${emu.urls.apiUrl}\nLOG_LEVEL=warn\n`);
    project.write('forced-gc.mjs', FORCED_GC_OBSERVER);
    const forcedCollections = async (flags: string[], text: string) => {
      const { PATH, HOME } = process.env;
      const preload = pathToFileURL(`${project.dir}/forced-gc.mjs`).href;
      child = spawn(process.execPath, ['--import', preload, bin, 'start', ...flags], {
        cwd: project.dir,
        env: { PATH, HOME },
        stdio: 'pipe',
      });
      const output = collectOutput(child);
      const exited = once(child, 'exit');
      expect((await control.firstAnswer('ping', { text })).answers[0]?.content).toBe(`pong v1 ${text}`);
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code, output()).toBe(0);
      return [...output().matchAll(/^forced gc: (\d+)$/gm)].map((m) => Number(m[1]));
    };
    const kinds = await forcedCollections([], 'collected');
    expect(kinds).toHaveLength(1);
    // Node 20's V8 makes a young-generation collection of it (see collect-start-garbage.ts).
    const nodeMajor = Number(process.versions.node.split('.')[0]);
    if (nodeMajor >= 22) expect(kinds[0]).toBe(constants.NODE_PERFORMANCE_GC_MAJOR);
    expect(await forcedCollections(['--no-gc-after-start'], 'uncollected')).toEqual([]);
    project.write('.env', '');
  });

  it('fails fast with exit code 2 and the fix when BOARDBOT_TOKEN is missing', async () => {
    project.write('.env', '');
    const io = testIo(project.dir, {});
    expect(await runCli(['node', 'boardbot', 'start'], io)).toBe(2);
    expect(io.errors.join('\n')).toContain('BOARDBOT_CLI_MISSING_TOKEN');
    expect(io.errors.join('\n')).toContain('boardbot dev');
  });

  it('fails with exit code 2 and says how to build when the entry is missing', async () => {
    const io = testIo(project.dir, { BOARDBOT_TOKEN: 'x' });
    expect(await runCli(['node', 'boardbot', 'start', '--entry', 'dist/missing.js'], io)).toBe(2);
    expect(io.errors.join('\n')).toContain("The bot's entry dist/missing.js does not exist");
  });

  it('rejects a bad BOARDBOT_API_URL or LOG_LEVEL with exit code 2, naming where the value came from', async () => {
    project.write('.env', 'BOARDBOT_TOKEN=x\nBOARDBOT_API_URL=localhost:8787\n');
    const url = testIo(project.dir, {});
    expect(await runCli(['node', 'boardbot', 'start'], url)).toBe(2);
    expect(url.errors.join('\n')).toContain('BOARDBOT_API_URL in .env is not an http(s) URL');

    const level = testIo(project.dir, { BOARDBOT_TOKEN: 'x' });
    expect(
      await runCli(
        ['node', 'boardbot', 'start', '--log-level', 'loud', '--api-url', 'http://127.0.0.1:1/api/v1'],
        level,
      ),
    ).toBe(2);
    expect(level.errors.join('\n')).toContain('--log-level is "loud"');
    project.write('.env', '');
  });

  it('serves /readyz and /metrics on --health-port and --health-host while the bot runs', async () => {
    project.write('.env', `BOARDBOT_TOKEN=start-token\nBOARDBOT_API_URL=${emu.urls.apiUrl}\nLOG_LEVEL=warn\n`);
    const port = await vacantPort();
    const { PATH, HOME } = process.env;
    child = spawn(process.execPath, [bin, 'start', '--health-port', String(port), '--health-host', '127.0.0.1'], {
      cwd: project.dir,
      env: { PATH, HOME },
      stdio: 'ignore',
    });
    const exited = once(child, 'exit');
    const health = `http://127.0.0.1:${port}`;
    await eventuallyValue(
      () => fetch(`${health}/readyz`),
      (res) => res.status === 200,
      POLL,
    );
    await eventuallyValue(
      () => control.invoke('ping', { text: 'health' }),
      (v) => v.answers.length > 0,
      POLL,
    );
    const metrics = await (await fetch(`${health}/metrics`)).text();
    expect(metrics).toMatch(/boardbot_events_received_total\{event="interaction.create"\} [1-9]/);
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    project.write('.env', '');
  });

  it('rejects a --health-port that is no port with exit code 2', async () => {
    const io = testIo(project.dir, { BOARDBOT_TOKEN: 'x' });
    expect(await runCli(['node', 'boardbot', 'start', '--health-port', 'http'], io)).toBe(2);
    expect(io.errors.join('\n')).toContain('Expected a port number from 0 to 65535.');
  });
});
