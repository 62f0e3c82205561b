import type { Sql } from 'postgres';
import { PostgresOptionError } from './errors.js';

/** Options of `postgresStores()`: `url` or `sql` is required, every other field has a default. */
export interface PostgresStoresOptions {
  /**
   * The database (`postgres://user:password@host:port/database`, with `?sslmode=require` and the
   * like as the client reads them); never logged with its password. Required unless `sql` is given.
   * @defaultValue none
   */
  url?: string | undefined;
  /**
   * A client of the `postgres` package you built yourself (TLS files, a pool shared with the rest of
   * the app...): the stores use it instead of `url` and never close it. @defaultValue none
   */
  sql?: Sql | undefined;
  /**
   * The PostgreSQL schema the tables are in (made if missing, when `createSchema` is on). Two bots
   * may share one; schemas keep apart what must not meet (a staging copy of a bot...).
   * @defaultValue `'public'`
   */
  schema?: string;
  /**
   * Whether the stores create and upgrade their tables at their first use, through the versioned
   * migrations of the package's `sql/` folder, under an advisory lock so that processes starting at
   * once wait for each other. `false` leaves them to your own migrations (apply the same files): the
   * stores then only check that the tables are there. @defaultValue true
   */
  createSchema?: boolean;
  /** Most connections the stores open at once (the client's pool). @defaultValue 10 */
  maxConnections?: number;
  /** How long to wait for a connection, in ms. @defaultValue 10_000 */
  connectTimeoutMs?: number;
  /**
   * How often rows past their time are removed (expired sessions a day on, deleted ones a week on,
   * cooldowns out of their window), in ms; the timer starts at the stores' first use and never keeps
   * the process alive. 0 turns it off (`stores.sweep()` still runs one). @defaultValue 3_600_000 (1 hour)
   */
  sweepIntervalMs?: number;
}

/** Defaults of {@link PostgresStoresOptions} that have a plain value. */
export const DEFAULT_POSTGRES_OPTIONS = {
  schema: 'public',
  createSchema: true,
  maxConnections: 10,
  connectTimeoutMs: 10_000,
  sweepIntervalMs: 3_600_000,
} as const satisfies Required<Omit<PostgresStoresOptions, 'url' | 'sql'>>;

/** The options in force. */
export interface ResolvedPostgresOptions {
  url: string | undefined;
  sql: Sql | undefined;
  schema: string;
  createSchema: boolean;
  maxConnections: number;
  connectTimeoutMs: number;
  sweepIntervalMs: number;
}

const isInt = (n: unknown, low: number, high: number) =>
  Number.isInteger(n) && (n as number) >= low && (n as number) <= high;

/**
 * Fills in the defaults and refuses what cannot work, naming the option.
 * @param options - what the caller gave
 */
export function resolvePostgresOptions(options: PostgresStoresOptions): ResolvedPostgresOptions {
  const o: ResolvedPostgresOptions = {
    ...DEFAULT_POSTGRES_OPTIONS,
    url: undefined,
    sql: undefined,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  };
  if (o.sql === undefined && o.url === undefined) {
    throw new PostgresOptionError('url', 'is required (or give sql, a client of the postgres package)');
  }
  if (o.url !== undefined && !/^postgres(ql)?:\/\//.test(o.url)) {
    throw new PostgresOptionError('url', 'must be a postgres:// or postgresql:// URL');
  }
  // Lower case only: PostgreSQL folds unquoted names, so a mixed-case schema would differ between
  // the stores' quoted names and a team's own unquoted SQL.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(o.schema)) {
    throw new PostgresOptionError('schema', 'must be 1 to 63 of a-z 0-9 _, starting with a letter or _');
  }
  if (!isInt(o.maxConnections, 1, 1000)) {
    throw new PostgresOptionError('maxConnections', 'must be an integer from 1 to 1000');
  }
  if (!isInt(o.connectTimeoutMs, 100, 600_000)) {
    throw new PostgresOptionError('connectTimeoutMs', 'must be an integer from 100 to 600000');
  }
  if (!isInt(o.sweepIntervalMs, 0, 7 * 24 * 60 * 60 * 1000) || (o.sweepIntervalMs > 0 && o.sweepIntervalMs < 1000)) {
    throw new PostgresOptionError('sweepIntervalMs', 'must be 0 (off) or an integer from 1000 to 604800000 (a week)');
  }
  return o;
}

/**
 * A PostgreSQL URL as it may be shown: without its user's password (in the URL's user part or as its
 * `password` parameter).
 * @param url - the configured URL
 */
export function redactPostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    u.searchParams.delete('password');
    return u.toString();
  } catch {
    return 'postgres://(unreadable URL)';
  }
}
