import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@boardbot/protocol';
import { PRIVATE_FILE_MODE } from './state-dir.js';

// The files of the state directory (sessions, positions) are written to `<file>.tmp-<pid>` first,
// synced, then renamed into place: a crash never leaves a torn file, only a temporary one.
const TMP = '.tmp-';

/**
 * Writes `text` to the temporary file of `file` (mode 0600) and syncs it to disk.
 * @param file - the file the temporary one is renamed to once written
 * @param text - its content
 * @returns the temporary file's path
 */
export async function writeTemp(file: string, text: string): Promise<string> {
  const tmp = `${file}${TMP}${process.pid}`;
  const handle = await open(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return tmp;
}

/**
 * Removes the temporary files in `dir` that no write is making any more: those of a process that is
 * gone (SIGKILL during a write) and, with `ownToo` (at start, before this process wrote anything; in
 * a container the pid is the same at every start), this process's own. A live process's are left to it.
 *
 * @param dir - the directory
 * @param ownToo - whether this process's own are removed too
 * @param what - what the files hold (`session`, `position`), for the log line
 * @param log - where each removal is reported
 * @param of - only the temporary files of this file name, when given (another bot's are left alone)
 * @returns how many it removed
 */
export async function removeStaleTemps(
  dir: string,
  ownToo: boolean,
  what: string,
  log?: Logger,
  of?: string,
): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0; // No directory yet: nothing was ever written here.
  }
  let removed = 0;
  for (const name of names) {
    const at = name.lastIndexOf(TMP);
    if (at < 0 || (of !== undefined && name.slice(0, at) !== of)) continue;
    const pid = Number(name.slice(at + TMP.length));
    if (pid === process.pid ? !ownToo : isRunning(pid)) continue;
    await rm(join(dir, name), { force: true });
    removed++;
    log?.info({ file: join(dir, name) }, `removed a temporary ${what} file left by an interrupted write`);
  }
  return removed;
}

/** Whether a process with this pid runs (the writer of a temporary file) (EPERM: it does, under another user). */
function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
