import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from '@boardbot/protocol';
import { type Clock, systemClock } from '../kernel/clock.js';
import { defaultStateDir, ensurePrivateDir, syncDir } from '../kernel/state-dir.js';
import { removeStaleTemps, writeTemp } from '../kernel/state-files.js';
import type { SessionRecord, SessionStore, SessionValue } from './session-store.js';

/**
 * proper-lockfile, loaded at the first write or sweep, not with the bot: it brings graceful-fs, which
 * patches `fs`, and a bot that never writes a session never needs it.
 */
let lockfile: Promise<typeof import('proper-lockfile')> | undefined;
const lock: typeof import('proper-lockfile').lock = async (file, options) => {
  lockfile ??= import('proper-lockfile');
  return (await lockfile).lock(file, options);
};

/** Version of the file format; a file of another version is treated as no session. */
const FORMAT = 1;

/** How long a lock may go without being refreshed before another process takes it over (its holder died). */
const STALE_LOCK_MS = 10_000;

/**
 * How long after it expired a session's file is deleted: a day, as Redis reclaims a session, which
 * covers the platform's idempotency window (24 h), so an event replayed after the session expired
 * still finds its update applied.
 */
export const FORGET_EXPIRED_AFTER_MS = 24 * 60 * 60 * 1000;

/** How often a {@link FileSessionStore} in use deletes the files of expired and ended sessions: hourly. */
export const SESSION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

interface SessionFile extends SessionRecord {
  format: number;
  key: string;
}

/** What a {@link FileSessionStore} reads time from and reports to. */
export interface FileSessionStoreOptions {
  /** Decides which sessions expired and times the sweep (the bot gives its own). @defaultValue the system clock */
  clock?: Clock;
  /** Where removed leftovers and a readable state directory are reported. @defaultValue none */
  log?: Logger;
}

/**
 * Sessions in JSON files under `<stateDir>/sessions/`, one per session: the embedded default, shared
 * by every process that runs on the same disk. A write holds the session's lock (`proper-lockfile`:
 * an atomic `mkdir`, refreshed while held, taken over once stale), checks the version, then writes a
 * new file (mode 0600, in a 0700 directory), syncs it, renames it into place and syncs the
 * directory, so a reader (which takes no lock) always sees a complete file and a crash never leaves
 * half a session.
 *
 * It forgets: a deleted session's file is removed (it reads as never written), and so is a session's
 * {@link FORGET_EXPIRED_AFTER_MS} after it expired, when it is next read and by a sweep every
 * {@link SESSION_SWEEP_INTERVAL_MS} (an unref'd timer on the clock, from the first use to `close()`).
 * At its first use it removes the temporary files of writes a crash interrupted.
 */
export class FileSessionStore implements SessionStore {
  readonly description: string;
  private readonly dir: string;
  private readonly clock: Clock;
  private readonly log: Logger | undefined;
  private started: Promise<void> | undefined;
  private timer: unknown;

  /**
   * @param stateDir - the bot's state directory @defaultValue `BOARDBOT_STATE_DIR`, else `.boardbot`
   * @param options - the clock and the logger
   */
  constructor(stateDir: string = defaultStateDir(), options: FileSessionStoreOptions = {}) {
    this.dir = resolve(stateDir, 'sessions');
    this.description = `file ${this.dir}`;
    this.clock = options.clock ?? systemClock;
    this.log = options.log;
  }

  async read(key: string): Promise<SessionRecord | undefined> {
    await this.start();
    const file = this.fileOf(key);
    const stored = await this.load(file, key);
    if (stored === undefined) return undefined;
    if (this.forgettable(stored.value)) {
      await this.forget(file);
      return undefined;
    }
    return { version: stored.version, value: stored.value };
  }

  async write(key: string, expected: number, value: SessionValue | null): Promise<boolean> {
    await this.start();
    await ensurePrivateDir(this.dir, this.log);
    const file = this.fileOf(key);
    const release = await lock(file, {
      realpath: false,
      stale: STALE_LOCK_MS,
      retries: { retries: 200, factor: 1.3, minTimeout: 1, maxTimeout: 50, randomize: true },
    });
    try {
      const stored = await this.load(file, key);
      // A file it would forget is no session: version 0, as once it is removed.
      const version = stored === undefined || this.forgettable(stored.value) ? 0 : stored.version;
      if (version !== expected) return false;
      if (value === null) {
        // Deleted: forgotten at once. A writer that read the old version still fails (it finds 0).
        await rm(file, { force: true });
      } else {
        const body: SessionFile = { format: FORMAT, key, version: expected + 1, value };
        await rename(await writeTemp(file, `${JSON.stringify(body)}\n`), file);
      }
      await syncDir(this.dir);
      return true;
    } finally {
      await release();
    }
  }

  /**
   * Deletes the files of ended sessions and of those that expired more than
   * {@link FORGET_EXPIRED_AFTER_MS} ago, and the temporary files of processes that are gone. Runs
   * every {@link SESSION_SWEEP_INTERVAL_MS} once the store is in use; call it to sweep now.
   *
   * @returns how many files it removed
   */
  async sweep(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = await removeStaleTemps(this.dir, false, 'session', this.log);
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const file = join(this.dir, name);
      const stored = await this.load(file);
      if (stored !== undefined && this.forgettable(stored.value) && (await this.forget(file))) removed++;
    }
    return removed;
  }

  /** Stops the sweep. */
  async close(): Promise<void> {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.started = undefined;
  }

  /** At the first use: the directory made private, a crash's leftovers removed, the sweep timed. */
  private start(): Promise<void> {
    this.started ??= (async () => {
      await ensurePrivateDir(this.dir, this.log);
      await removeStaleTemps(this.dir, true, 'session', this.log);
      this.arm();
    })().catch((err: unknown) => {
      // Tried again at the next use (a directory that could not be made yet, say).
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  private arm(): void {
    this.timer = this.clock.setTimeout(() => {
      this.arm();
      this.sweep().catch((err: unknown) => this.log?.warn({ err, dir: this.dir }, 'the session sweep failed'));
    }, SESSION_SWEEP_INTERVAL_MS);
    // The sweep never keeps a process alive on its own.
    (this.timer as { unref?: () => void } | undefined)?.unref?.();
  }

  /** Whether a stored value is one to delete: ended, or expired a day ago. */
  private forgettable(value: SessionValue | null): boolean {
    return (
      value === null || (value.expiresAt !== null && value.expiresAt + FORGET_EXPIRED_AFTER_MS <= this.clock.now())
    );
  }

  /**
   * Removes `file` if it is still one to forget, under its lock; a file whose lock is held is left
   * (its writer replaces or removes it, or the next sweep does).
   * @returns whether it was removed
   */
  private async forget(file: string): Promise<boolean> {
    let release: () => Promise<void>;
    try {
      release = await lock(file, { realpath: false, stale: STALE_LOCK_MS, retries: 0 });
    } catch {
      return false;
    }
    try {
      const stored = await this.load(file);
      if (stored === undefined || !this.forgettable(stored.value)) return false;
      await rm(file, { force: true });
      await syncDir(this.dir);
      return true;
    } finally {
      await release();
    }
  }

  /** The file's session, if it is one of this format (and of `key`, when given). */
  private async load(file: string, key?: string): Promise<SessionFile | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const stored = JSON.parse(text) as SessionFile;
    if (stored.format !== FORMAT || (key !== undefined && stored.key !== key)) return undefined;
    return stored;
  }

  /** The file of a session: its key hashed, so any key is a safe file name. */
  private fileOf(key: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`);
  }
}
