import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { buildProjects, eventuallyValue } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectOutput } from './support/child-output.js';
import { Control, POLL } from './support/control.js';

// Runs the built CLI: build it first (a no-op when up to date), so it is never a stale build.
beforeAll(() => buildProjects('packages/cli'), 180_000);

// The README's quick start, `npm run dev`, is `tsc -b packages/cli && node scripts/dev.mjs`: npm test
// has built the CLI, so this runs the script itself, as a real process, on a free port and a fresh
// in-memory database. It builds the dice example by itself (the playground page is not needed here).
const root = new URL('../../../', import.meta.url).pathname;

describe('npm run dev (scripts/dev.mjs)', () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });

  it('starts the emulator and the dice bot, prints the URLs and the admin key, answers /roll, and stops on Ctrl-C', {
    timeout: 180_000,
  }, async () => {
    child = spawn(process.execPath, ['scripts/dev.mjs', '--port', '0', '--db', ':memory:'], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'warn', BOARDBOT_SKIP_PLAYGROUND_BUILD: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = collectOutput(child);
    const exited = once(child, 'exit');
    const printed = await eventuallyValue(
      async () => output(),
      (text) => /Admin key +\S+/.test(text) && text.includes('Starting the bot'),
      { ...POLL, timeoutMs: 150_000 },
    );
    const controlUrl = /Control API +(\S+)/.exec(printed)?.[1];
    const adminKey = /Admin key +(\S+)/.exec(printed)?.[1];
    expect(printed).toMatch(/Playground +http:\/\/127\.0\.0\.1:\d+\/\?key=/);
    expect(controlUrl && adminKey, printed).toBeTruthy();

    const control = new Control(controlUrl as string, adminKey as string);
    const view = await control.firstAnswer('roll', { sides: 20 }, { ...POLL, timeoutMs: 50_000 });
    expect(view.answers[0]?.content, output()).toMatch(/You rolled \*\*\d+\*\* \(d20\)/);

    child.kill('SIGINT');
    const [code] = await exited;
    expect(code, output()).toBe(0);
    expect(output()).toContain('Stopped.');
  });
});
