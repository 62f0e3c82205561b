import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmulatorStorageError } from '../src/errors.js';
import { Checkpointer } from '../src/store/checkpointer.js';
import { openDatabase } from '../src/store/db.js';
import {
  betterSqlite3Refusal,
  chooseSqliteDriver,
  SQLITE_DRIVERS,
  type SqliteDriver,
  type SqliteDriverName,
  sqliteDriver,
} from '../src/store/sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'boardbot-sqlite-driver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Every driver that loads on this Node: node:sqlite on 24 (and 22.16+), better-sqlite3 on 20 (and 22).
const available = (Object.keys(SQLITE_DRIVERS) as SqliteDriverName[]).flatMap((name): SqliteDriver[] => {
  try {
    const driver = SQLITE_DRIVERS[name]();
    return driver ? [driver] : [];
  } catch {
    return [];
  }
});

const hasNodeSqlite = (() => {
  const mod = process.getBuiltinModule?.('node:sqlite') as
    | { DatabaseSync: new (p: string) => { isTransaction?: unknown; close(): void } }
    | undefined;
  if (!mod) return false;
  const db = new mod.DatabaseSync(':memory:');
  const complete = typeof db.isTransaction === 'boolean';
  db.close();
  return complete;
})();

describe('the SQLite driver', () => {
  it('is node:sqlite where this Node has it, else better-sqlite3', () => {
    expect(sqliteDriver().name).toBe(hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3');
    expect(available.map((d) => d.name)).toContain(sqliteDriver().name);
  });

  describe.each(available.map((d) => [d.name, d] as const))('%s', (_name, driver) => {
    it('prepares statements that get, list, pluck and run with positional and named parameters', () => {
      const db = driver.open(':memory:');
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)');
      const insert = db.prepare('INSERT INTO t (id, name, score) VALUES (@id, @name, @score)');
      // Named parameters the SQL does not use are ignored, as better-sqlite3 does.
      expect(insert.run({ id: 1, name: 'ada', score: 3, unused: 'x' }).changes).toBe(1);
      db.prepare('INSERT INTO t (id, name, score) VALUES (?, ?, ?)').run(2, 'bob', 5);
      const byId = db.prepare<[number], { name: string; score: number }>('SELECT name, score FROM t WHERE id = ?');
      expect({ ...byId.get(2) }).toEqual({ name: 'bob', score: 5 });
      expect(byId.get(9)).toBeUndefined();
      const names = db.prepare<[], string>('SELECT name FROM t ORDER BY id').pluck();
      expect(names.all()).toEqual(['ada', 'bob']);
      expect(names.get()).toBe('ada');
      expect(
        db
          .prepare('SELECT * FROM t')
          .all()
          .map((r) => ({ ...(r as object) })),
      ).toEqual([
        { id: 1, name: 'ada', score: 3 },
        { id: 2, name: 'bob', score: 5 },
      ]);
      expect(db.prepare('UPDATE t SET score = score + 1').run().changes).toBe(2);
      db.close();
      expect(db.open).toBe(false);
    });

    it('commits a transaction, rolls back a failed one, and nests them as savepoints', () => {
      const db = driver.open(':memory:');
      db.exec('CREATE TABLE t (v TEXT UNIQUE)');
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      const count = db.prepare<[], number>('SELECT count(*) FROM t').pluck();
      const tx = db.transaction((...values: string[]) => {
        for (const v of values) insert.run(v);
        expect(db.inTransaction).toBe(true);
        return values.length;
      });
      expect(tx('a', 'b')).toBe(2);
      expect(db.inTransaction).toBe(false);
      // A duplicate fails the whole transaction: 'c' is not kept either.
      expect(() => tx('c', 'a')).toThrow();
      expect(db.inTransaction).toBe(false);
      expect(count.get()).toBe(2);
      // Inside an open transaction, a failing inner one undoes only its own writes.
      db.exec('BEGIN IMMEDIATE');
      insert.run('d');
      expect(() => tx('e', 'a')).toThrow();
      expect(db.inTransaction).toBe(true);
      tx('f');
      db.exec('COMMIT');
      expect(db.prepare<[], string>('SELECT v FROM t ORDER BY v').pluck().all()).toEqual(['a', 'b', 'd', 'f']);
      db.close();
    });

    it('reads and sets pragmas', () => {
      const db = driver.open(join(dir, `pragma-${driver.name.replace(':', '-')}.db`));
      expect(db.pragma('user_version', { simple: true })).toBe(0);
      db.pragma('user_version = 7');
      expect(db.pragma('user_version', { simple: true })).toBe(7);
      expect(db.pragma('journal_mode = WAL', { simple: true })).toBe('wal');
      expect((db.pragma('journal_mode') as object[]).map((r) => ({ ...r }))).toEqual([{ journal_mode: 'wal' }]);
      db.close();
    });
  });
});

describe('choosing a driver', () => {
  const none = { 'node:sqlite': () => undefined, 'better-sqlite3': () => undefined };

  it('says exactly what to install when no driver can load', () => {
    expect(() => chooseSqliteDriver(undefined, none)).toThrow(EmulatorStorageError);
    expect(() => chooseSqliteDriver(undefined, none)).toThrow(
      /npm install better-sqlite3@12`, or run on Node 26, the current LTS/,
    );
    expect(() => chooseSqliteDriver('better-sqlite3', none)).toThrow(
      /BOARDBOT_SQLITE_DRIVER=better-sqlite3.*npm install better-sqlite3@12/,
    );
    expect(() => chooseSqliteDriver('node:sqlite', none)).toThrow(/run on Node 26, the current LTS \(or 22\.16\+\)/);
  });

  it('refuses an unknown driver name', () => {
    expect(() => chooseSqliteDriver('sqlite3')).toThrow(
      /BOARDBOT_SQLITE_DRIVER must be node:sqlite or better-sqlite3, got sqlite3/,
    );
  });

  it('tries node:sqlite first, then better-sqlite3, unless one is forced', () => {
    const fake = (name: SqliteDriverName): SqliteDriver => ({
      name,
      open: () => {
        throw new Error('not opened here');
      },
      worker: { module: name },
    });
    const both = { 'node:sqlite': () => fake('node:sqlite'), 'better-sqlite3': () => fake('better-sqlite3') };
    expect(chooseSqliteDriver(undefined, both).name).toBe('node:sqlite');
    expect(chooseSqliteDriver('', both).name).toBe('node:sqlite');
    expect(chooseSqliteDriver('better-sqlite3', both).name).toBe('better-sqlite3');
    expect(chooseSqliteDriver(undefined, { ...both, 'node:sqlite': () => undefined }).name).toBe('better-sqlite3');
  });

  it('refuses better-sqlite3 13 on Node 20 and 12 on Node 24.19+, where they crash, with the fix', () => {
    expect(betterSqlite3Refusal('13.2.0', '20.20.2')).toMatch(
      /crashes on Node 20\.20\.2: .*npm install better-sqlite3@12/,
    );
    expect(betterSqlite3Refusal('12.11.1', '24.19.0')).toMatch(/aborts the process on Node 24\.19\.0: use node:sqlite/);
    expect(betterSqlite3Refusal('12.11.1', '26.1.0')).toMatch(/aborts the process/);
    expect(betterSqlite3Refusal('12.11.1', '20.19.0')).toBeUndefined();
    expect(betterSqlite3Refusal('12.11.1', '24.18.0')).toBeUndefined();
    expect(betterSqlite3Refusal('13.2.0', '22.12.0')).toBeUndefined();
    expect(betterSqlite3Refusal('13.2.0', '24.21.0')).toBeUndefined();
  });
});

describe('the checkpoint worker', () => {
  it('moves committed WAL frames into the database file from its own thread', async () => {
    const path = join(dir, 'checkpoint.db');
    const db = openDatabase(path);
    db.exec('CREATE TABLE filler (v TEXT)');
    const before = statSync(path).size;
    const insert = db.prepare('INSERT INTO filler (v) VALUES (?)');
    // About 1 MiB, far below the automatic checkpoint's threshold: only the worker moves it.
    db.transaction(() => {
      for (let i = 0; i < 1000; i++) insert.run('x'.repeat(1000));
    })();
    expect(statSync(path).size).toBe(before);
    const logged: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => logged.push(args) } as never;
    const checkpointer = new Checkpointer(path, logger, 10);
    try {
      await expect
        .poll(() => statSync(path).size, { timeout: 20_000, interval: 20 })
        .toBeGreaterThan(before + 1_000_000);
    } finally {
      await checkpointer.close();
      db.close();
    }
    expect(logged).toEqual([]);
  });
});
