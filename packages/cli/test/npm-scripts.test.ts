import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { buildProjects, eventuallyValue } from '@boardbot/test-support';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { collectOutput } from './support/child-output.js';
import { typedByHand } from './support/cli-process.js';
import { Control, POLL } from './support/control.js';
import { buildFixtureProject, fixtureProjectForTest } from './support/fixture-project.js';

// The CLI as people start it through npm: `npx boardbot …` and an npm script (`npm run dev`), as real
// processes. A terminal's Ctrl-C signals the whole foreground job, so each run here is a process
// group of its own and Ctrl-C is SIGINT to that group.

beforeAll(() => buildProjects('packages/cli'), 180_000);

/** Starts `command` in a process group of its own; the group is killed when the test finishes. */
function job(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(command, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...typedByHand(process.env), LOG_LEVEL: 'warn', ...env },
  });
  const output = collectOutput(child);
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  // Every process that holds the output has ended (the job's last one may outlive the first).
  const allGone = Promise.all([once(child.stdout, 'close'), once(child.stderr, 'close')]);
  onTestFinished(async () => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {}
    await allGone;
  });
  return { child, output, exited, allGone, ctrlC: () => process.kill(-(child.pid as number), 'SIGINT') };
}

/** Waits until `boardbot dev` in `run` has a bot that answers /ping. */
async function devAnswering(run: { output(): string }, child: ChildProcess): Promise<void> {
  const printed = await eventuallyValue(
    async () => {
      if (child.exitCode !== null) throw new Error(`exited early:\n${run.output()}`);
      return run.output();
    },
    (text) => /Admin key +\S+/.test(text) && text.includes('Starting the bot'),
    { ...POLL, timeoutMs: 90_000 },
  );
  const control = new Control(
    /Control API +(\S+)/.exec(printed)?.[1] ?? '',
    /Admin key +(\S+)/.exec(printed)?.[1] ?? '',
  );
  const view = await control.firstAnswer('ping', { text: 'npx' }, { ...POLL, timeoutMs: 60_000 });
  expect(view.answers[0]?.content).toBe('pong v1 npx');
}

describe('boardbot through npm', () => {
  it('a taken port: the fix names the npm script with the flag after --, and that command starts', {
    timeout: 120_000,
  }, async () => {
    const project = fixtureProjectForTest('npm-port');
    project.write(
      'package.json',
      `${JSON.stringify({ name: 'npm-port', private: true, type: 'module', scripts: { emu: 'boardbot emulator --db :memory:' } })}\n`,
    );
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as { port: number }).port;

    const refused = job('npm', ['run', 'emu', '--', '--port', String(port)], project.dir);
    await refused.allGone;
    expect(refused.output()).toContain('error BOARDBOT_CLI_PORT_IN_USE');
    const advised = /Fix: .*?run `(npm run [^`]+)`/.exec(refused.output())?.[1];
    expect(advised, refused.output()).toBe('npm run emu -- --port 0');

    // The fix, copied as it is.
    const [command, ...args] = (advised as string).split(' ');
    const fixed = job(command as string, args, project.dir);
    await eventuallyValue(
      async () => fixed.output(),
      (text) => text.includes('boardbot emulator listening'),
      {
        ...POLL,
        timeoutMs: 60_000,
      },
    );
    fixed.ctrlC();
    await fixed.allGone;
    expect(fixed.output()).toContain('Stopped.');
  });

  it('npx boardbot dev: one Ctrl-C stops it cleanly, and npm ends with its 0 where npm waits for the command', {
    timeout: 180_000,
  }, async () => {
    // bash runs `sh -c "boardbot dev"` as boardbot itself, so npm's child is the CLI, which gets the
    // terminal's SIGINT and npm's copy of it: the case where both must count as one Ctrl-C.
    if (!existsSync('/bin/bash')) throw new Error('this test needs /bin/bash (npm_config_script_shell)');
    const project = fixtureProjectForTest('npx-dev');
    await buildFixtureProject(project);
    const run = job('npx', ['--no-install', 'boardbot', 'dev', '--port', '0', '--db', ':memory:'], project.dir, {
      npm_config_script_shell: '/bin/bash',
    });
    await devAnswering(run, run.child);
    run.ctrlC();
    const [code, signal] = await run.exited;
    await run.allGone;
    expect({ code, signal }, run.output()).toEqual({ code: 0, signal: null });
    expect(run.output()).toContain('Stopped.');
    expect(run.output()).not.toContain('again');
  });

  it("npx boardbot dev with npm's default script shell: the CLI stops cleanly, whatever npm ends with", {
    timeout: 180_000,
  }, async () => {
    // Where sh is dash (Debian, Ubuntu), the shell npm runs the command in dies at Ctrl-C and npm
    // ends at once with SIGINT (130 in the shell); the CLI still stops the bot and the emulator.
    const project = fixtureProjectForTest('npx-dev-sh');
    await buildFixtureProject(project);
    const run = job('npx', ['--no-install', 'boardbot', 'dev', '--port', '0', '--db', ':memory:'], project.dir);
    await devAnswering(run, run.child);
    run.ctrlC();
    await run.allGone;
    expect(run.output()).toContain('Stopped.');
    expect(run.output()).not.toContain('again');
  });
});
