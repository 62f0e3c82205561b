import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@boardbot/cli';
import { type BuildResult, type DevSession, readDevStates } from '@boardbot/cli/internal';
import { buildProjects, eventuallyValue, occupiedPort } from '@boardbot/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { Control, POLL } from './support/control.js';
import { runDevForTest } from './support/dev-session.js';
import { fixtureProjectForTest, pingSource } from './support/fixture-project.js';
import { testIo } from './support/test-io.js';

// Runs the built CLI: build it first (a no-op when up to date), so it is never a stale build.
beforeAll(() => buildProjects('packages/cli'), 180_000);

function nextBotStart(session: DevSession): Promise<{ count: number }> {
  return new Promise((resolve) => session.once('bot-start', resolve));
}

describe('boardbot dev', () => {
  // Two TypeScript builds and two bot starts: about 15 s alone, and twice that with the whole suite
  // in parallel on two cores, so it gets the budget of the other end-to-end tests of the CLI.
  it('builds the project, runs the bot against its emulator, and restarts it on a change while the emulator keeps its state', {
    timeout: 120_000,
  }, async () => {
    const project = fixtureProjectForTest('dev');
    const io = testIo(project.dir);
    const session = await runDevForTest({ port: 0, logLevel: 'warn' }, io);
    await nextBotStart(session);
    const output = io.lines.join('\n');
    expect(output).toContain(`Playground    ${session.urls.playgroundUrl}`);
    expect(session.urls.playgroundUrl).toContain(`?key=${encodeURIComponent(session.emulator.adminKey)}`);
    expect(output).toContain(`Admin key     ${session.emulator.adminKey}`);
    // The emulator's state lives in the project's .boardbot/ directory.
    expect(existsSync(join(project.dir, '.boardbot', 'emulator.db'))).toBe(true);

    const control = new Control(session.urls.controlUrl, session.emulator.adminKey);
    const first = await control.firstAnswer('ping', { text: 'hi' });
    expect(first.answers[0]?.content).toBe('pong v1 hi');
    // `boardbot invoke` finds the running dev through its record in .boardbot/ and prints the answer.
    expect(readDevStates(project.dir).map((s) => s.controlUrl)).toEqual([session.urls.controlUrl]);
    const invoke = testIo(project.dir);
    expect(await runCli(['node', 'boardbot', 'invoke', '/ping', 'text=again', '--as', 'bob'], invoke)).toBe(0);
    expect(invoke.lines).toEqual(['pong v1 again']);
    const refused = testIo(project.dir);
    expect(await runCli(['node', 'boardbot', 'invoke', 'ping', 'colour=red'], refused)).toBe(1);
    expect(refused.errors).toEqual([
      'error BOARDBOT_CLI_INVOCATION: /ping was refused: option "colour": Unknown option.',
    ]);
    const messagesBefore = await control.messageCount();
    expect(messagesBefore).toBeGreaterThan(0);

    const restarted = nextBotStart(session);
    project.write('src/ping.ts', pingSource('v2'));
    expect((await restarted).count).toBe(2);
    const second = await eventuallyValue(
      () => control.invoke('ping'),
      (v) => v.answers[0]?.content === 'pong v2',
      POLL,
    );
    expect(second.answers[0]?.content).toBe('pong v2');
    // Same emulator, same data: the first answer is still on the board.
    expect(await control.messageCount()).toBeGreaterThan(messagesBefore);

    // A type error does not hold the reload back: the saved file is emitted at once and the bot runs
    // it, while the type check beside reports the error.
    const failedBuild = new Promise<BuildResult>((resolve) =>
      session.on('build', (result) => {
        if (result.errors > 0) resolve(result);
      }),
    );
    const typeErrorStart = nextBotStart(session);
    project.write('src/ping.ts', `${pingSource('v3')}export const oops: number = 'not a number';\n`);
    expect((await typeErrorStart).count).toBe(3);
    const v3 = await eventuallyValue(
      () => control.invoke('ping'),
      (v) => v.answers[0]?.content === 'pong v3',
      POLL,
    );
    expect(v3.answers[0]?.content).toBe('pong v3');
    expect((await failedBuild).errors).toBe(1);
    expect(io.errors.join('\n')).toMatch(/src\/ping\.ts.*error TS2322/);
    expect(io.errors.join('\n')).toContain('the bot runs the saved code anyway');

    // A syntax error is not emitted: the bot keeps running the last code that parsed.
    const syntaxFailure = new Promise<BuildResult>((resolve) =>
      session.on('build', (result) => {
        if (result.errors > 0) resolve(result);
      }),
    );
    let startsAfterFailure = 0;
    session.on('bot-start', () => startsAfterFailure++);
    project.write('src/ping.ts', `${pingSource('v4')}export const broken = ;\n`);
    expect((await syntaxFailure).errors).toBeGreaterThan(0);
    expect(io.errors.join('\n')).toContain('the bot keeps running the last good build');
    const stillV3 = await control.invoke('ping');
    expect(stillV3.answers[0]?.content).toBe('pong v3');
    expect(startsAfterFailure).toBe(0);
    // ...and writes nothing: dist/ still holds the code the bot runs.
    const built = readFileSync(join(project.dir, 'dist', 'ping.js'), 'utf8');
    expect(built).toContain('pong v3');
    expect(built).not.toContain('v4');

    io.signal('SIGINT');
    await session.stopped;
    expect(io.exitCodes).toEqual([0]);
    expect(io.lines).toContain('Stopped.');
    expect(readDevStates(project.dir)).toEqual([]);
    const noDev = testIo(project.dir);
    expect(await runCli(['node', 'boardbot', 'invoke', 'ping'], noDev)).toBe(2);
    expect(noDev.errors.join('\n')).toContain('start `npm run dev` in another terminal');
  });

  it('says how to fix a taken port (exit code 1) and leaves nothing running', async () => {
    const project = fixtureProjectForTest('dev-port');
    const blocker = await occupiedPort();
    const port = blocker.port;
    try {
      const io = testIo(project.dir);
      expect(await runCli(['node', 'boardbot', 'dev', '--port', String(port)], io)).toBe(1);
      expect(io.errors.join('\n')).toContain(`BOARDBOT_CLI_PORT_IN_USE: Port ${port} on 127.0.0.1 is already in use`);
      expect(io.errors.join('\n')).toContain('add `--port 0`');
      expect(readDevStates(project.dir)).toEqual([]);
    } finally {
      await blocker.release();
    }
  });

  it('refuses a directory without tsconfig.json (exit code 2), saying how to make a project', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'boardbot-empty-'));
    try {
      const io = testIo(empty);
      expect(await runCli(['node', 'boardbot', 'dev', '--port', '0'], io)).toBe(2);
      expect(io.errors.join('\n')).toContain('BOARDBOT_CLI_PROJECT: No tsconfig.json in');
      expect(io.errors.join('\n')).toContain('npm create boardbot');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
