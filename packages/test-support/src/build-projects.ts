import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// This file sits in packages/test-support/src/ (and its build in dist/): the checkout is three levels up.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const tscLock = join(root, 'test-output/.tsc-build.lock');

/**
 * Runs `work` while holding the lock directory `lock`, so that test files running in parallel never
 * build the same output at once; a lock older than a minute is left from a killed run and taken over.
 */
export async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(lock), { recursive: true });
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (waited > 60_000 || Date.now() - since > 60_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds TypeScript projects of the repository (`tsc -b`, a no-op when their output is up to date)
 * before a test uses their `dist/`: a test must never run a stale build, alone or in `npm test`.
 *
 * @param projects - Project paths from the repository root, e.g. `packages/cli`.
 */
export async function buildProjects(...projects: string[]): Promise<void> {
  await withLock(tscLock, async () => {
    await promisify(execFile)(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', ...projects], {
      cwd: root,
    }).catch((error: { stdout?: string; message: string }) => {
      throw new Error(`tsc -b ${projects.join(' ')} failed:\n${error.stdout ?? error.message}`);
    });
  });
}
