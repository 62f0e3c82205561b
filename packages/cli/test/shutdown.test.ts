import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProjects } from '@boardbot/test-support';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// Runs the built CLI: build it first (a no-op when up to date), so it is never a stale build.
beforeAll(() => buildProjects('packages/cli'), 180_000);

const bin = new URL('../dist/bin.js', import.meta.url).pathname;

describe('shutting down the built CLI', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  // Regression: with a file database the emulator's close() waits for an unref'd checkpoint worker;
  // nothing else held the event loop, so node ended with code 13 before "Stopped.".
  it('exits with 0 after "Stopped." when the emulator on a file database gets SIGINT', {
    timeout: 60_000,
  }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'boardbot-shutdown-'));
    const child = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--db', join(dir, 'emulator.db')], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let listening: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      listening = resolve;
    });
    child.stdout.on('data', (d) => {
      output += d;
      if (output.includes('Press Ctrl+C')) listening();
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const exited = once(child, 'exit');
    await Promise.race([ready, exited.then(() => expect.fail(`exited before listening:\n${output}`))]);
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code, output).toBe(0);
    expect(output).toContain('Stopped.');
  });
});
