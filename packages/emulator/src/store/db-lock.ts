import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EmulatorDatabaseInUseError, type EmulatorDatabaseOwner, EmulatorStorageError } from '../errors.js';
import { type Db, sqliteDriver } from './sqlite-driver.js';

/**
 * Creates `path` readable and writable by its owner only (0600) if it does not exist yet; an existing
 * file keeps its mode. SQLite gives its `-wal` and `-shm` files the mode of the database file, so
 * they follow.
 */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** The lock file of a database: a SQLite file of its own, held in exclusive locking mode. */
export function lockPathOf(path: string): string {
  return `${path}.lock`;
}

/** The owner record of a database: who holds its lock, written once the lock is taken. */
export function ownerPathOf(path: string): string {
  return `${path}.owner.json`;
}

function isBusy(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown };
  // better-sqlite3: `code: 'SQLITE_BUSY'`; node:sqlite: `errcode: 5` and SQLite's own message.
  return e.code === 'SQLITE_BUSY' || e.errcode === 5 || /database is locked/.test(String(e.message));
}

function readOwner(path: string): EmulatorDatabaseOwner | undefined {
  try {
    const value = JSON.parse(readFileSync(ownerPathOf(path), 'utf8')) as Partial<EmulatorDatabaseOwner>;
    if (typeof value.pid !== 'number') return undefined;
    return typeof value.url === 'string' ? { pid: value.pid, url: value.url } : { pid: value.pid };
  } catch {
    return undefined;
  }
}

/**
 * An emulator's hold on its database file, for as long as it runs. The lock is SQLite's own on a
 * file beside the database (`<db>.lock`, in `locking_mode = EXCLUSIVE` after a write): an `fcntl`
 * lock, which the OS drops when the process dies, however it dies, so a `kill -9` leaves nothing to
 * clean up. It is not taken on the database itself because the checkpoint worker needs its own
 * connection to that (see `checkpointer.ts`), which an exclusive database would refuse.
 */
export class DatabaseLock {
  private constructor(
    private readonly path: string,
    private readonly lockDb: Db,
  ) {}

  /**
   * Takes the lock of the database at `path` at once (no waiting), then writes the owner record.
   *
   * @param path - The database file (not `':memory:'`).
   * @throws EmulatorDatabaseInUseError when another process (or another emulator of this one) holds it.
   */
  static acquire(path: string): DatabaseLock {
    const lockPath = lockPathOf(path);
    let lockDb: Db;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      createPrivateFile(lockPath);
      lockDb = sqliteDriver().open(lockPath);
    } catch (cause) {
      throw new EmulatorStorageError(
        `Cannot open ${lockPath}, the lock of the emulator database: check its permissions`,
        {
          cause,
        },
      );
    }
    try {
      lockDb.pragma('busy_timeout = 0');
      lockDb.pragma('locking_mode = EXCLUSIVE');
      lockDb.pragma('journal_mode = MEMORY');
      // A real write: only a write takes the exclusive lock, which this mode then never gives back.
      lockDb.exec(
        `CREATE TABLE IF NOT EXISTS holder (pid INTEGER); DELETE FROM holder; INSERT INTO holder VALUES (${process.pid});`,
      );
    } catch (cause) {
      lockDb.close();
      if (isBusy(cause)) throw new EmulatorDatabaseInUseError(path, readOwner(path));
      throw new EmulatorStorageError(`Cannot lock the emulator database at ${path}: check the path and permissions`, {
        cause,
      });
    }
    const lock = new DatabaseLock(path, lockDb);
    lock.writeOwner({ pid: process.pid });
    return lock;
  }

  /**
   * Records where this emulator listens, so a second one on the same file can say which one holds it.
   *
   * @param url - The emulator's base URL.
   */
  setUrl(url: string): void {
    this.writeOwner({ pid: process.pid, url });
  }

  /** Removes the owner record, then lets the lock go (in that order: the next holder's record stays). */
  release(): void {
    if (!this.lockDb.open) return;
    rmSync(ownerPathOf(this.path), { force: true });
    this.lockDb.close();
  }

  private writeOwner(owner: EmulatorDatabaseOwner): void {
    const path = ownerPathOf(this.path);
    const next = `${path}.${process.pid}.tmp`;
    try {
      // Renamed into place: a reader never sees half a record.
      writeFileSync(next, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
      renameSync(next, path);
    } catch {
      // The record only improves a second emulator's error message; the lock is what counts.
      rmSync(next, { force: true });
    }
  }
}
