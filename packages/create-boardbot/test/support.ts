import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateIo } from '../src/index.js';

/** The boardbot checkout these tests run in (its packages must be built: `npm test` builds them). */
export const checkout = new URL('../../../', import.meta.url).pathname;

/** A temporary directory outside the checkout, so nothing resolves from the checkout by accident. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'create-boardbot-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A {@link CreateIo} that records its output. */
export function recordingIo(cwd: string, run?: CreateIo['run']): CreateIo & { lines: string[]; errors: string[] } {
  const io = {
    lines: [] as string[],
    errors: [] as string[],
    cwd,
    out: (line: string) => io.lines.push(line),
    err: (line: string) => io.errors.push(line),
    ...(run ? { run } : {}),
  };
  return io;
}

// The outer `npm test` and vitest set variables (npm_config_*, VITEST_*) that would leak into the
// new project's own npm and vitest: a new user's shell has none of them.
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(npm_|VITEST|NODE_OPTIONS$|NODE_ENV$|INIT_CWD$|TEST$)/i.test(k)),
  );
}

/** Runs a command with a clean environment; resolves with its exit code and output. */
export function runCaptured(
  command: string,
  args: readonly string[],
  cwd: string,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}
