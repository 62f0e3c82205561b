import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '@boardbot/cli';
import { type DevState, devPort, devStatePath, readDevStates } from '@boardbot/cli/internal';
import { buildProjects, vacantPort } from '@boardbot/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { advisedFlags, type CliProcess, spawnCli } from './support/cli-process.js';
import { Control, POLL } from './support/control.js';
import { fixtureProjectForTest } from './support/fixture-project.js';
import { testIo } from './support/test-io.js';

// Two `boardbot dev` in one project, as real processes: the second is refused on the shared database
// (it used to start on it and break the first), follows the fix it is given, and then each keeps
// its own record, answers its own invocations, and stops without touching the other's.

beforeAll(() => buildProjects('packages/cli'), 180_000);

const mode = (path: string) => statSync(path).mode & 0o777;

/** A `boardbot dev` once its bot answers, and its record. */
async function devUp(dir: string, args: string[]): Promise<{ cli: CliProcess; state: DevState; control: Control }> {
  const cli = spawnCli(['dev', ...args], dir, { LOG_LEVEL: 'warn' });
  const [, api] = await cli.waitFor(/Emulator {6}(http:\/\/\S+)\/api\/v1/);
  const state = readDevStates(dir).find((s) => s.pid === cli.pid && s.controlUrl.startsWith(api as string));
  if (!state) throw new Error(`no record of pid ${cli.pid}:\n${cli.output()}`);
  const control = new Control(state.controlUrl, state.adminKey);
  await control.firstAnswer('ping', {}, POLL);
  return { cli, state, control };
}

async function invoke(dir: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const io = testIo(dir);
  const code = await runCli(['node', 'boardbot', 'invoke', ...args], io);
  return { code, out: io.text() };
}

describe('two `boardbot dev` in one project', () => {
  it('the second is refused on the shared database, runs beside the first with the flags it is told, and each keeps its own record', {
    timeout: 240_000,
  }, async () => {
    const project = fixtureProjectForTest('two-devs');
    const args = ['--port', String(await vacantPort())];
    const first = await devUp(project.dir, args);

    // The same command again (a second `npm run dev`): refused at once, naming the file, the holder and the fix.
    const second = spawnCli(['dev', ...args], project.dir);
    expect(await second.exited).toBe(1);
    const refusal = second.output();
    expect(refusal).toContain('error BOARDBOT_CLI_DB_IN_USE: The emulator database .boardbot/emulator.db is in use');
    expect(refusal).toContain(`pid ${first.cli.pid}, http://127.0.0.1:${devPort(first.state)}`);
    expect((await first.control.invoke('ping', { text: 'still' })).answers[0]?.content).toBe('pong v1 still');

    // Its fix, followed as written.
    const beside = await devUp(project.dir, [...args, ...advisedFlags(refusal)]);
    expect(beside.state.db).toBe('.boardbot/emulator-2.db');
    expect(readDevStates(project.dir)).toEqual([first.state, beside.state]);

    // Private state, under the umask the processes had (vitest's, 022 or tighter).
    const boardbot = join(project.dir, '.boardbot');
    expect(mode(boardbot)).toBe(0o700);
    for (const file of ['emulator.db', 'emulator-2.db']) expect(mode(join(boardbot, file)), file).toBe(0o600);
    for (const state of [first.state, beside.state]) expect(mode(devStatePath(project.dir, state))).toBe(0o600);

    // `invoke` asks which, then reaches the one it is told, by port or by pid.
    const ambiguous = await invoke(project.dir, 'ping');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.out).toContain('BOARDBOT_CLI_SEVERAL_DEV');
    expect(ambiguous.out).toContain(`pid ${first.cli.pid} on port ${devPort(first.state)}`);
    expect(ambiguous.out).toContain(`pid ${beside.cli.pid} on port ${devPort(beside.state)}`);
    expect(ambiguous.out).toContain('--dev <port or pid>');
    const counts = async () => [await first.control.messageCount(), await beside.control.messageCount()];
    const before = await counts();
    expect(await invoke(project.dir, 'ping', 'text=one', '--dev', String(devPort(first.state)))).toEqual({
      code: 0,
      out: 'pong v1 one',
    });
    expect(await counts()).toEqual([(before[0] as number) + 1, before[1]]);
    expect(await invoke(project.dir, 'ping', 'text=two', '--dev', String(beside.cli.pid))).toEqual({
      code: 0,
      out: 'pong v1 two',
    });
    expect(await counts()).toEqual([(before[0] as number) + 1, (before[1] as number) + 1]);

    // Stopping the first removes its record only; `invoke` then finds the other with no flag.
    expect(await first.cli.stop('SIGINT')).toBe(0);
    expect(readDevStates(project.dir)).toEqual([beside.state]);
    expect(await invoke(project.dir, 'ping', 'text=three')).toEqual({ code: 0, out: 'pong v1 three' });
    expect(await beside.cli.stop('SIGINT')).toBe(0);
    expect(readDevStates(project.dir)).toEqual([]);
  });

  it('after kill -9 of a `boardbot dev`, a new one on the same project starts at once and its record is the only one', {
    timeout: 240_000,
  }, async () => {
    const project = fixtureProjectForTest('dev-kill');
    const killed = await devUp(project.dir, ['--port', '0']);
    const refused = spawnCli(['dev', '--port', '0'], project.dir);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(
      `BOARDBOT_CLI_DB_IN_USE: The emulator database .boardbot/emulator.db is in use by another emulator (pid ${killed.cli.pid}`,
    );

    expect(await killed.cli.stop('SIGKILL')).toBe('SIGKILL');
    // Its record stays behind (nothing ran to remove it) until the next reader sees its process gone.
    const stale = devStatePath(project.dir, killed.state);
    expect(statSync(stale).isFile()).toBe(true);
    const next = await devUp(project.dir, ['--port', '0']);
    expect(readDevStates(project.dir)).toEqual([next.state]);
    expect(existsSync(stale)).toBe(false);
    expect(await invoke(project.dir, 'ping', 'text=again')).toEqual({ code: 0, out: 'pong v1 again' });
    expect(await next.cli.stop('SIGINT')).toBe(0);
  });
});
