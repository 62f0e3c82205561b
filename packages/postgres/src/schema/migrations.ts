import { readdir, readFile } from 'node:fs/promises';

/** One versioned step of the stores' tables: a file of the package's `sql/` folder. */
export interface PostgresMigration {
  /** Its number, the order it runs in (`001-tables.sql` is 1). */
  version: number;
  /** The file's name, e.g. `001-tables.sql`. */
  name: string;
  /** Its SQL: statements with unqualified names, run with the stores' schema first on the search path. */
  sql: string;
}

/** The tables the stores read and write, as the migrations create them. */
export const POSTGRES_TABLES = ['boardbot_sessions', 'boardbot_cooldowns', 'boardbot_positions'] as const;

/** The table that records which migrations ran in a schema (the stores' own, not in `sql/`). */
export const MIGRATIONS_TABLE = 'boardbot_migrations';

// The published folder: `sql/` at the package's root, beside `dist/` (and `src/`).
const SQL_DIR = new URL('../../sql/', import.meta.url);

/**
 * The migrations the package ships, in order: the SQL a team applies itself with `createSchema:
 * false` (the files of `node_modules/@boardbot/postgres/sql/`), and what the stores run otherwise.
 */
export async function readPostgresMigrations(): Promise<PostgresMigration[]> {
  const names = (await readdir(SQL_DIR)).filter((name) => /^\d{3}-[a-z0-9-]+\.sql$/.test(name)).sort();
  return Promise.all(
    names.map(async (name) => ({
      version: Number(name.slice(0, 3)),
      name,
      sql: await readFile(new URL(name, SQL_DIR), 'utf8'),
    })),
  );
}
