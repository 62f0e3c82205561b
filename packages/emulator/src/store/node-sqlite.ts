import type { Db, RunResult, Statement } from './sqlite-db.js';

// The parts of `node:sqlite` this adapter uses, typed here: @types/node 20 (the oldest Node the
// project supports) has no `node:sqlite`.
interface NativeStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): RunResult;
  setReturnArrays(enabled: boolean): void;
  setAllowUnknownNamedParameters?(enabled: boolean): void;
}

/** `node:sqlite`'s `DatabaseSync`, as far as the adapter uses it. */
export interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  exec(sql: string): void;
  close(): void;
  readonly isTransaction: boolean;
}

/** `node:sqlite`'s exports, as far as the adapter uses them. */
export interface NodeSqliteModule {
  DatabaseSync: new (path: string) => NativeDatabase;
}

class NodeStatement<P extends unknown[], R> implements Statement<P, R> {
  private plucked = false;

  constructor(private readonly native: NativeStatement) {
    // better-sqlite3 ignores named parameters the SQL does not use; so does this adapter.
    native.setAllowUnknownNamedParameters?.(true);
  }

  get(...params: P): R | undefined {
    const row = this.native.get(...params);
    return (this.plucked ? (row as unknown[] | undefined)?.[0] : row) as R | undefined;
  }

  all(...params: P): R[] {
    const rows = this.native.all(...params);
    return (this.plucked ? rows.map((r) => (r as unknown[])[0]) : rows) as R[];
  }

  run(...params: P): RunResult {
    return this.native.run(...params);
  }

  pluck(): this {
    // Rows as arrays: cheaper than objects, and the first column needs no name.
    this.native.setReturnArrays(true);
    this.plucked = true;
    return this;
  }
}

/**
 * The better-sqlite3 surface the repositories use, on Node's built-in `node:sqlite`: statements that
 * can `pluck`, `pragma()`, `transaction()` (a savepoint when nested, as in better-sqlite3) and the
 * `open` / `inTransaction` flags.
 */
export class NodeSqliteDb implements Db {
  /** @param native - An open `DatabaseSync`. */
  constructor(private readonly native: NativeDatabase) {}

  private isOpen = true;
  private readonly begin = this.native.prepare('BEGIN');
  private readonly commit = this.native.prepare('COMMIT');
  private readonly rollback = this.native.prepare('ROLLBACK');
  private readonly savepoint = this.native.prepare('SAVEPOINT boardbot_tx');
  private readonly release = this.native.prepare('RELEASE boardbot_tx');
  private readonly rollbackTo = this.native.prepare('ROLLBACK TO boardbot_tx');

  get open(): boolean {
    return this.isOpen;
  }

  get inTransaction(): boolean {
    return this.native.isTransaction;
  }

  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    return new NodeStatement<P, R>(this.native.prepare(sql));
  }

  exec(sql: string): void {
    this.native.exec(sql);
  }

  pragma(sql: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.native.prepare(`PRAGMA ${sql}`);
    if (!options.simple) return statement.all();
    statement.setReturnArrays(true);
    return (statement.get() as unknown[] | undefined)?.[0];
  }

  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
    return (...args: A): T => {
      const nested = this.native.isTransaction;
      (nested ? this.savepoint : this.begin).run();
      try {
        const result = fn(...args);
        (nested ? this.release : this.commit).run();
        return result;
      } catch (err) {
        // A failed COMMIT can leave the transaction open; a rolled-back one is already closed.
        if (this.native.isTransaction) {
          if (nested) {
            this.rollbackTo.run();
            this.release.run();
          } else {
            this.rollback.run();
          }
        }
        throw err;
      }
    };
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.native.close();
  }
}
