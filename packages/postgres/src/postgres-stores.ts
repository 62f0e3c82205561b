import { PostgresConnection } from './connection/connection.js';
import { PostgresCooldowns } from './cooldowns/postgres-cooldowns.js';
import { type PostgresStoresOptions, resolvePostgresOptions } from './options.js';
import { PostgresPositionStore } from './position/postgres-position-store.js';
import { PostgresSessionStore } from './sessions/postgres-session-store.js';

/** The stores of one database and schema, sharing one client: give each to `createBot`. */
export interface PostgresStores {
  /** Sessions, conversations, schedule claims, answer records and editable links: `createBot({ sessions })`. */
  readonly sessions: PostgresSessionStore;
  /** The resume point: `createBot({ position })`. */
  readonly position: PostgresPositionStore;
  /** Cooldown windows on the database's clock: `createBot({ cooldowns })`. */
  readonly cooldowns: PostgresCooldowns;
  /**
   * Opens the client and creates (or, with `createSchema: false`, checks) the tables now rather than
   * at the first use, e.g. in a deploy step. @throws PostgresUnavailableError, PostgresSchemaMissingError,
   * PostgresMigrationError
   */
  ready(): Promise<void>;
  /** Removes the rows whose time is over now (the timer of `sweepIntervalMs` does it on its own). */
  sweep(): Promise<void>;
  /**
   * Ends the client. The bot's `stop()` does it already, once it closed the session and position
   * stores it was given; this is for stores used without a bot.
   */
  close(): Promise<void>;
}

/**
 * Keeps a bot's state in PostgreSQL: its sessions and conversations (compare-and-set in one
 * statement), schedule claims, answer records and editable links, cooldowns, and its resume point,
 * shared by every process that uses the same database and schema, and kept when a machine is not.
 * The tables are created at the first use through versioned migrations (safe when several processes
 * start at once), or left to your own (`createSchema: false`, the SQL in the package's `sql/` folder).
 * The `postgres` client is loaded then too. See docs/sessions.md.
 *
 * @param options - the database, schema, migrations, pool (see {@link PostgresStoresOptions})
 * @example
 * const pg = postgresStores({ url: process.env.DATABASE_URL });
 * const bot = createBot({ token, handlers, sessions: pg.sessions, position: pg.position, cooldowns: pg.cooldowns });
 */
export function postgresStores(options: PostgresStoresOptions): PostgresStores {
  const connection = new PostgresConnection(resolvePostgresOptions(options), () => sweep());
  const sessions = new PostgresSessionStore(connection);
  const cooldowns = new PostgresCooldowns(connection);
  const sweep = async () => {
    await sessions.sweep();
    await cooldowns.sweep();
  };
  return {
    sessions,
    position: new PostgresPositionStore(connection),
    cooldowns,
    ready: () => connection.ready(),
    sweep,
    close: () => connection.end(),
  };
}
