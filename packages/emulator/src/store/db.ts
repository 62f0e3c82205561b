import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { EmulatorStorageError } from '../errors.js';
import { createPrivateFile } from './db-lock.js';
import { MIGRATIONS } from './migrations.js';
import { type Db, sqliteDriver } from './sqlite-driver.js';

export type { Db } from './sqlite-driver.js';

/**
 * Opens (creating it and its directory if needed) and migrates the emulator's database.
 *
 * Durability: WAL with `synchronous = NORMAL`. A commit appends to the WAL file with `write(2)`
 * before the driver returns, so the data is in the kernel's page cache when the HTTP answer
 * leaves; a `kill -9` of the process cannot lose it (only a power cut or kernel crash before the
 * next checkpoint's fsync could). `FULL` would add an fsync per commit for protection the emulator
 * does not need, at a large cost to send throughput.
 *
 * Privacy: a new file, and a directory made for it, are its owner's only (0600, 0700), whatever the
 * umask: the database holds people's messages.
 *
 * @param path - A file path, or `':memory:'`.
 */
export function openDatabase(path: string): Db {
  // Outside the try: a missing driver has its own message, naming what to install.
  const driver = sqliteDriver();
  let db: Db;
  try {
    if (isFilePath(path)) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      createPrivateFile(path);
    }
    db = driver.open(path);
  } catch (cause) {
    throw new EmulatorStorageError(`Cannot open the emulator database at ${path}: check the path and permissions`, {
      cause,
    });
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Each write of a group commit is a savepoint, whose sub-journal (the pages it changed, for its
  // rollback) spilled to a new temporary file (open, unlink, writes, close) whenever a page split;
  // in memory it costs no system call. Sorts and temporary tables of reads are small here.
  db.pragma('temp_store = MEMORY');
  // Checkpoints run on a worker thread (checkpointer.ts); this threshold (64 MiB of WAL) only
  // matters if that worker is not running.
  db.pragma('wal_autocheckpoint = 16384');
  migrate(db, path);
  return db;
}

/** Whether `path` names a file on disk (not `':memory:'`, nor a `file:` URI, which SQLite reads itself). */
export function isFilePath(path: string): boolean {
  return path !== ':memory:' && !path.startsWith('file:');
}

function migrate(db: Db, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    db.close();
    throw new EmulatorStorageError(
      `The database at ${path} has schema version ${version}, newer than this emulator knows (${MIGRATIONS.length}): upgrade @boardbot/emulator or use another --db`,
    );
  }
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
