import { createHash } from 'node:crypto';
import type { Sql } from 'postgres';
import { codeOf, isSqlState, unreachable } from '../connection/sql-state.js';
import { PostgresMigrationError } from '../errors.js';
import { MIGRATIONS_TABLE, type PostgresMigration } from './migrations.js';

/**
 * The advisory lock that orders the migrations of one schema: processes of every bot migrating it
 * take the same key, and those of another schema another.
 * @param schema - the schema migrated
 */
export function migrationLockKey(schema: string): string {
  const digest = createHash('sha256').update(`boardbot.postgres.migrations:${schema}`).digest();
  return digest.readBigInt64BE(0).toString();
}

/**
 * Brings a schema's tables to the latest version: in one transaction that first takes the schema's
 * advisory lock (`pg_advisory_xact_lock`), so processes starting at once run it one after the other
 * and the later ones find it done; each migration not yet recorded in `boardbot_migrations` runs and
 * is recorded. A migration that fails leaves nothing behind (the transaction rolls back). Versions
 * recorded that this package does not know (a newer release ran) are left alone.
 *
 * @param sql - the client
 * @param schema - the schema, made if missing
 * @param migrations - the package's migrations, in order
 * @returns the versions this call applied (none when the schema was up to date)
 */
export async function migrate(sql: Sql, schema: string, migrations: readonly PostgresMigration[]): Promise<number[]> {
  const quoted = `"${schema}"`;
  let step = 'the schema';
  try {
    return await sql.begin(async (tx) => {
      await tx.unsafe('SELECT pg_advisory_xact_lock($1)', [migrationLockKey(schema)]);
      // Looked up first: CREATE SCHEMA IF NOT EXISTS asks for CREATE on the database even when it exists.
      const [found] = await tx.unsafe('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      if (!found) await tx.unsafe(`CREATE SCHEMA ${quoted}`);
      await tx.unsafe(`SET LOCAL search_path TO ${quoted}`);
      step = MIGRATIONS_TABLE;
      await tx.unsafe(
        `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version integer PRIMARY KEY, name text NOT NULL, ` +
          'applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set((await tx.unsafe(`SELECT version FROM ${MIGRATIONS_TABLE}`)).map((r) => Number(r.version)));
      const applied: number[] = [];
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        step = m.name;
        await tx.unsafe(m.sql).simple();
        await tx.unsafe(`INSERT INTO ${MIGRATIONS_TABLE} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
        applied.push(m.version);
      }
      return applied;
    });
  } catch (error) {
    // The server refused a step (a SQLSTATE not about reaching it): the migration's own failure.
    const code = codeOf(error);
    if (code !== undefined && isSqlState(code) && !unreachable(code))
      throw new PostgresMigrationError(schema, step, error);
    throw error;
  }
}

/**
 * The tables of `tables` that `schema` lacks (with `createSchema: false`, the team's migrations made them).
 * @param sql - the client
 * @param schema - the schema looked in
 * @param tables - the tables the stores need
 */
export async function missingTables(sql: Sql, schema: string, tables: readonly string[]): Promise<string[]> {
  const rows = await sql.unsafe(
    'SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace ' +
      "WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')",
    [schema],
  );
  const present = new Set(rows.map((r) => r.name as string));
  return tables.filter((t) => !present.has(t));
}
