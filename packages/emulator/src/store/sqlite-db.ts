// The database the emulator's store uses, whichever SQLite driver opens it.

/** What a write statement reports. */
export interface RunResult {
  /** Rows changed by the statement (a number: neither driver is asked for BigInts). */
  changes: number;
}

/** A prepared statement: the part of better-sqlite3's `Statement` the repositories use. */
export interface Statement<P extends unknown[] = unknown[], R = unknown> {
  /** The first row (with {@link pluck}, its first column), or `undefined`. */
  get(...params: P): R | undefined;
  /** Every row (with {@link pluck}, their first columns). */
  all(...params: P): R[];
  /** Runs a write. */
  run(...params: P): RunResult;
  /** From now on, rows are their first column's value. */
  pluck(): this;
}

/** An open SQLite connection: the part of better-sqlite3's `Database` the repositories use. */
export interface Db {
  /** Whether the connection is open. */
  readonly open: boolean;
  /** Whether a transaction is open. */
  readonly inTransaction: boolean;
  /** Compiles `sql` once; parameters are positional, or one object for `@name` parameters. */
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R>;
  /** Runs statements that return nothing. */
  exec(sql: string): void;
  /** Runs `PRAGMA sql`: every row, or with `simple` the first row's first column. */
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  /** Wraps `fn` in a transaction (a savepoint when one is already open); a throw rolls it back. */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T;
  /** Closes the connection. */
  close(): void;
}
