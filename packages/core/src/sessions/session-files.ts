import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@boardbot/protocol';
import { isRunning } from '../kernel/state-dir.js';

/** A write goes to `<file>.tmp-<pid>` first, then is renamed into place. */
export const TMP = '.tmp-';

/**
 * Removes the temporary files in `dir` that no write is making any more: those of a process that is
 * gone (SIGKILL during a write) and, with `ownToo` (at start, before this process wrote anything; in
 * a container the pid is the same at every start), this process's own. A live process's are left to it.
 *
 * @returns how many it removed
 */
export async function removeStaleTemps(dir: string, ownToo: boolean, log?: Logger): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0; // No directory yet: nothing was ever written here.
  }
  let removed = 0;
  for (const name of names) {
    const at = name.lastIndexOf(TMP);
    if (at < 0) continue;
    const pid = Number(name.slice(at + TMP.length));
    if (pid === process.pid ? !ownToo : isRunning(pid)) continue;
    await rm(join(dir, name), { force: true });
    removed++;
    log?.info({ file: join(dir, name) }, 'removed a temporary session file left by an interrupted write');
  }
  return removed;
}
