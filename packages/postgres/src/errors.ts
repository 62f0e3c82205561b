import type { BoardbotErrorOptions, ErrorArgs } from '@boardbot/protocol';
import { BoardbotError, createErrorFactory } from '@boardbot/protocol/runtime';
import { codeOf } from './connection/sql-state.js';

// The root every boardbot error extends, for `instanceof` and `isBoardbotError` without importing protocol.
export { BoardbotError, isBoardbotError } from '@boardbot/protocol/runtime';

// Every error of `@boardbot/postgres`, declared once. Messages name the database by its redacted URL
// (no password) and a cause by its code only: a client's message may quote the URL with its password.
const POSTGRES_ERRORS = createErrorFactory({
  BOARDBOT_POSTGRES_INVALID_OPTION: {
    message: (option: string, problem: string) => `postgresStores(): ${option} ${problem}.`,
  },
  BOARDBOT_POSTGRES_UNAVAILABLE: {
    message: (where: string, code: string) =>
      `PostgreSQL at ${where} cannot be reached (${code}): start it, or point postgresStores({ url }) at a ` +
      'running PostgreSQL that the URL’s user may log in to.',
  },
  BOARDBOT_POSTGRES_SCHEMA_MISSING: {
    message: (schema: string, missing: string) =>
      `The tables of @boardbot/postgres are not in schema "${schema}" (missing: ${missing}), and createSchema is ` +
      'false: apply the SQL files of node_modules/@boardbot/postgres/sql/ in that schema with your migrations, ' +
      'or let the stores create them (createSchema: true).',
  },
  BOARDBOT_POSTGRES_MIGRATION_FAILED: {
    message: (schema: string, version: string, sqlState: string) =>
      `Could not create the tables of @boardbot/postgres in schema "${schema}" (migration ${version}, SQLSTATE ` +
      `${sqlState}): give the URL’s user CREATE on that schema, or apply node_modules/@boardbot/postgres/sql/ ` +
      'yourself and set createSchema: false.',
  },
});

/**
 * Stable codes of the errors `@boardbot/postgres` throws. Match on `error.code`, never on the message.
 */
export const POSTGRES_ERROR_CODES = POSTGRES_ERRORS.codes;

/** A stable error code of `@boardbot/postgres`. */
export type PostgresErrorCode = (typeof POSTGRES_ERROR_CODES)[number];

/** Base of every error `@boardbot/postgres` throws; `code` is stable. */
export abstract class BoardbotPostgresError extends BoardbotError {
  declare readonly code: PostgresErrorCode;

  /** Takes the code, the arguments of its message template, and the underlying cause if any. */
  constructor(
    ...[code, args, options]: ErrorArgs<typeof POSTGRES_ERRORS, [options?: BoardbotErrorOptions | undefined]>
  ) {
    super(code, POSTGRES_ERRORS.message(code, args), options);
  }
}

/** An option of `postgresStores()` cannot work (no URL, a schema name PostgreSQL would fold...). */
export class PostgresOptionError extends BoardbotPostgresError {
  /**
   * @param option - the option, e.g. `schema`
   * @param problem - what is wrong, e.g. `must be 1 to 63 of a-z 0-9 _, starting with a letter or _`
   */
  constructor(option: string, problem: string) {
    super('BOARDBOT_POSTGRES_INVALID_OPTION', [option, problem]);
  }
}

/** The stores could not reach PostgreSQL (or log in) at their first use, which `bot.start()` makes. */
export class PostgresUnavailableError extends BoardbotPostgresError {
  /**
   * @param where - the URL without its password
   * @param cause - the client's error (its code is shown, never its message)
   */
  constructor(where: string, cause: unknown) {
    super('BOARDBOT_POSTGRES_UNAVAILABLE', [where, codeOf(cause) ?? 'no answer'], { cause });
  }
}

/** With `createSchema: false`, the tables the stores need are not there. */
export class PostgresSchemaMissingError extends BoardbotPostgresError {
  /**
   * @param schema - the schema looked in
   * @param missing - the tables not found
   */
  constructor(schema: string, missing: readonly string[]) {
    super('BOARDBOT_POSTGRES_SCHEMA_MISSING', [schema, missing.join(', ')]);
  }
}

/** A migration failed (the URL's user may not create tables there...); nothing of it was kept. */
export class PostgresMigrationError extends BoardbotPostgresError {
  /**
   * @param schema - the schema migrated
   * @param version - the migration, e.g. `001-tables`
   * @param cause - the server's error (its SQLSTATE is shown, never its message)
   */
  constructor(schema: string, version: string, cause: unknown) {
    super('BOARDBOT_POSTGRES_MIGRATION_FAILED', [schema, version, codeOf(cause) ?? 'none'], { cause });
  }
}
