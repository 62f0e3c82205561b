import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Board } from '@boardbot/emulator/control';
import { buildProjects, until } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectOutput } from './support/child-output.js';
import { buildFixtureProject, createFixtureProject, type FixtureProject } from './support/fixture-project.js';

// Runs the built CLI: build it first (a no-op when up to date), so it is never a stale build.
beforeAll(() => buildProjects('packages/cli'), 180_000);

const bin = new URL('../dist/bin.js', import.meta.url).pathname;

describe('boardbot start --host', () => {
  let project: FixtureProject;
  let emu: SeededEmulator;
  let child: ChildProcess | undefined;
  const apps: Record<string, { id: string; token: string; board: Board }> = {};

  beforeAll(async () => {
    project = createFixtureProject('start-host', { definition: true });
    await buildFixtureProject(project);
    emu = await startSeededEmulator();
    for (const [name, board] of [
      ['a', emu.seed.general],
      ['b', emu.seed.random],
    ] as const) {
      const created = await emu.control.createApp({ name: `app-${name}` });
      await emu.control.install(created.app.id, board.id);
      apps[name] = { id: created.app.id, token: created.token, board };
    }
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await emu?.close();
    project?.remove();
  });

  async function ping(name: string): Promise<string | null | undefined> {
    const app = apps[name] as { id: string; board: Board };
    const body = { board_id: app.board.id, user_id: emu.seed.alice.id, command: 'ping', options: {}, app_id: app.id };
    return (await emu.control.invokeAndWait(body, { answers: 1, timeoutMs: 15_000 })).answers?.[0]?.content;
  }

  const hosts = (...names: string[]) =>
    JSON.stringify({ apps: names.map((id) => ({ id, module: 'dist/bot.js', tokenEnv: `${id.toUpperCase()}_TOKEN` })) });

  it('runs the apps of the file in one process, applies the file again on SIGHUP, and stops on SIGTERM', async () => {
    // a's token in .env, b's in the environment: neither in the host file.
    project.write('.env', `A_TOKEN=${apps.a?.token}\nBOARDBOT_API_URL=${emu.apiUrl}\nLOG_LEVEL=info\n`);
    project.write('hosts.json', hosts('a'));
    const { PATH, HOME } = process.env;
    const env = { PATH, HOME, B_TOKEN: apps.b?.token };
    child = spawn(process.execPath, [bin, 'start', '--host', 'hosts.json'], { cwd: project.dir, env, stdio: 'pipe' });
    const output = collectOutput(child);
    const exited = once(child, 'exit');
    const applied = (n: number) => () => output().split('SIGHUP: host file applied').length > n;
    await until(() => output().includes('host started'), 'the host started', { report: output });
    expect(await ping('a')).toBe('pong v1');

    project.write('hosts.json', hosts('a', 'b'));
    child.kill('SIGHUP');
    await until(applied(1), 'the host file applied once', { report: output });
    expect(await ping('b')).toBe('pong v1');

    // a's token replaced on the platform and in .env: the next SIGHUP re-tokens a.
    const rotated = await emu.control.rotateToken(apps.a?.id as string);
    project.write('.env', `A_TOKEN=${rotated.token}\nBOARDBOT_API_URL=${emu.apiUrl}\nLOG_LEVEL=info\n`);
    child.kill('SIGHUP');
    await until(applied(2), 'the host file applied twice', { report: output });
    expect(await ping('a')).toBe('pong v1');

    project.write('hosts.json', hosts('b'));
    child.kill('SIGHUP');
    await until(applied(3), 'the host file applied three times', { report: output });
    const lines = output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.app === 'a' && l.msg === 'bot stopped')).toBe(true);
    expect(await ping('b')).toBe('pong v1');

    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code, output()).toBe(0);
    expect(output()).not.toContain(apps.a?.token);
    expect(output()).not.toContain(rotated.token);
    expect(output()).not.toContain(apps.b?.token);
  });
});
