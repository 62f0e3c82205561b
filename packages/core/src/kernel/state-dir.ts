import { chmod, mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '@boardbot/protocol';
import { readEnvironment } from './environment.js';

/** The state directory a bot uses when none is given: `BOARDBOT_STATE_DIR`, else `.boardbot`. */
export function defaultStateDir(): string {
  return readEnvironment().BOARDBOT_STATE_DIR ?? '.boardbot';
}

/** The mode of the state directory and its directories: its owner's alone (sessions hold what people wrote). */
export const PRIVATE_DIR_MODE = 0o700;

/** The mode of every file kept in the state directory (sessions, positions, their temporary files). */
export const PRIVATE_FILE_MODE = 0o600;

// Directories already made private by this process: the modes are checked once, not at every write.
const checked = new Set<string>();

/**
 * Makes `dir` (a directory directly in the state directory: `sessions`, `positions`) and the state
 * directory around it private: created {@link PRIVATE_DIR_MODE} whatever the umask, and an existing
 * one that other users can read is tightened to it. One that cannot be tightened (another user's, or
 * a shared directory with the sticky bit such as `/tmp`, which is never changed) is warned about.
 *
 * @param dir - the directory, made with its parents when missing
 * @param log - where a directory left readable is reported @defaultValue a process warning
 */
export async function ensurePrivateDir(dir: string, log?: Logger): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const path of [dirname(dir), dir]) {
    if (checked.has(path)) continue;
    await tighten(path, log);
    checked.add(path);
  }
}

async function tighten(path: string, log: Logger | undefined): Promise<void> {
  const { mode, uid } = await stat(path);
  if ((mode & 0o077) === 0) return;
  const shared = (mode & 0o1000) !== 0 || (process.getuid !== undefined && uid !== process.getuid());
  let failure: string | undefined = shared ? 'it is shared or belongs to another user' : undefined;
  if (!shared) {
    try {
      await chmod(path, PRIVATE_DIR_MODE);
      return;
    } catch (err) {
      failure = (err as NodeJS.ErrnoException).code ?? String(err);
    }
  }
  const text =
    `the state directory ${path} can be read by other users (mode ${(mode & 0o777).toString(8)}) and was not ` +
    `tightened (${failure}): run \`chmod 700 ${path}\`, or set BOARDBOT_STATE_DIR to a directory of your own`;
  if (log) log.warn({ dir: path, mode: (mode & 0o777).toString(8) }, text);
  else process.emitWarning(text);
}

/** Makes a rename or a removal in `dir` durable; some file systems cannot sync a directory, and lose nothing by it. */
export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // EISDIR/EINVAL/EPERM on some platforms: the rename itself is still atomic.
  }
}
