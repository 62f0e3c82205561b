import { chmodSync } from 'node:fs';
import type { Emulator, EmulatorOptions, EmulatorUrls } from '@boardbot/emulator';
import { DatabaseInUseError, PortInUseError } from '../errors.js';

/**
 * The file to suggest when `db` is taken: `.boardbot/emulator.db` → `.boardbot/emulator-2.db`,
 * `emulator-2.db` → `emulator-3.db`.
 *
 * @param db - the database file, as the user named it
 */
export function siblingDatabase(db: string): string {
  const match = /^(.*?)(?:-(\d+))?(\.[^./\\]*)?$/.exec(db);
  const [, base = db, n, ext = ''] = match ?? [];
  return `${base}-${n === undefined ? 2 : Number(n) + 1}${ext}`;
}

/**
 * Makes an existing database file and its WAL files their owner's only (0600): an emulator creates
 * new ones so, but a file an earlier version made keeps the mode it was given.
 *
 * @param db - the database file
 */
export function tightenDatabase(db: string): void {
  for (const file of [db, `${db}-wal`, `${db}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

interface DbInUse {
  code: 'BOARDBOT_EMULATOR_DB_IN_USE';
  owner?: { pid: number; url?: string };
}

function isDbInUse(error: unknown): error is DbInUse {
  return (error as { code?: unknown } | null)?.code === 'BOARDBOT_EMULATOR_DB_IN_USE';
}

/**
 * Creates the emulator and listens, as the CLI's commands do: a database file held by another
 * emulator and a taken port become the CLI's errors, whose fixes are flags that work as written.
 * Nothing is left open when it fails.
 *
 * @param options - the emulator's options
 * @param listen - where it listens
 * @param shownDb - the database as the user named it, for the messages
 * @param env - the CLI's environment, so that a fix is worded for the npm script that ran it
 */
export async function startEmulator(
  options: EmulatorOptions,
  listen: { host: string; port: number },
  shownDb: string,
  env: NodeJS.ProcessEnv,
): Promise<{ emulator: Emulator; urls: EmulatorUrls }> {
  let emulator: Emulator;
  try {
    // Loaded here, by the commands that run one: see emulator-defaults.ts.
    const { createEmulator } = await import('@boardbot/emulator');
    emulator = await createEmulator(options);
  } catch (error) {
    if (!isDbInUse(error)) throw error;
    const { owner } = error;
    const holder = owner
      ? `another emulator (pid ${owner.pid}${owner.url ? `, ${owner.url}` : ''})`
      : 'another emulator (its process cannot be told)';
    throw new DatabaseInUseError(shownDb, holder, siblingDatabase(shownDb), error, env);
  }
  try {
    return { emulator, urls: await emulator.listen(listen) };
  } catch (error) {
    await emulator.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(listen.host, listen.port, env);
    throw error;
  }
}
