import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withLock } from '@boardbot/test-support';

// The browser tests need the built page (`packages/emulator/dist/playground/`), which a fresh clone
// does not have. This builds it with the page's own vite config when it is missing or older than
// its sources (the page's, the control API client's, the HTTP helpers' and the error root's), once,
// even when several test files ask at the same time.

const playground = fileURLToPath(new URL('../../playground/', import.meta.url));
// The page also bundles the control API client, and protocol's HTTP helpers and error root, from their sources.
const sources = [
  playground,
  fileURLToPath(new URL('../../src/control/', import.meta.url)),
  fileURLToPath(new URL('../../../protocol/src/http/', import.meta.url)),
  fileURLToPath(new URL('../../../protocol/src/error-root/', import.meta.url)),
];
/** Where the built page lives (the emulator serves this directory at `/`). */
export const PLAYGROUND_DIST = fileURLToPath(new URL('../../dist/playground/', import.meta.url));
const lock = fileURLToPath(new URL('../../dist/.playground-build.lock', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function newestOf(dirs: string[]): number {
  return Math.max(...dirs.map(newestSource));
}

function builtAt(): number {
  try {
    return statSync(join(PLAYGROUND_DIST, 'index.html')).mtimeMs;
  } catch {
    return 0;
  }
}

/** Builds the playground page unless an up-to-date build exists; returns its directory. */
export async function ensurePlaygroundBuilt(): Promise<string> {
  if (builtAt() >= newestOf(sources)) return PLAYGROUND_DIST;
  await withLock(lock, async () => {
    if (builtAt() >= newestOf(sources)) return;
    const { build } = await import('vite');
    await build({ configFile: join(playground, 'vite.config.ts'), logLevel: 'warn' });
  });
  return PLAYGROUND_DIST;
}
