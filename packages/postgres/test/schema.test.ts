import { readdirSync } from 'node:fs';
import { vacantPort } from '@boardbot/test-support';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStores, readPostgresMigrations } from '../src/index.js';
import { freshSchema, usePostgres } from './support/postgres.js';

// The tables: created through versioned migrations at the first use (under an advisory lock, so
// processes starting at once take turns), or left to the team's migrations (createSchema: false).
const fixture = usePostgres();
let admin: postgres.Sql;
beforeAll(() => {
  admin = postgres(fixture().server.url, { onnotice: () => {} });
});
afterAll(() => admin?.end());

const tablesIn = async (schema: string) =>
  (await admin`SELECT tablename FROM pg_tables WHERE schemaname = ${schema} ORDER BY tablename`).map(
    (r) => r.tablename,
  );

describe('the migrations', () => {
  it('are the files of the published sql/ folder, in order', async () => {
    const files = readdirSync(new URL('../sql/', import.meta.url)).sort();
    const migrations = await readPostgresMigrations();
    expect(migrations.map((m) => m.name)).toEqual(files);
    expect(migrations.map((m) => m.version)).toEqual(files.map((_, i) => i + 1));
  });

  it('create the schema and its tables at the first use, and record each version once', async () => {
    const schema = freshSchema();
    const stores = fixture().stores({ schema });
    expect(await tablesIn(schema)).toEqual([]);
    await stores.position.load({ apiUrl: 'http://api', appId: 'a' });
    expect(await tablesIn(schema)).toEqual([
      'boardbot_cooldowns',
      'boardbot_migrations',
      'boardbot_positions',
      'boardbot_sessions',
    ]);
    await stores.close();
    await fixture().stores({ schema }).ready();
    const versions = await admin.unsafe(`SELECT version, name FROM "${schema}".boardbot_migrations`);
    expect(versions.map((r) => [r.version, r.name])).toEqual([[1, '001-tables.sql']]);
  });

  it('run once when ten processes start at once on a new schema: each waits for the one that holds the lock', async () => {
    const schema = freshSchema();
    // Ten clients of their own, as ten processes would have.
    const starts = Array.from({ length: 10 }, () => fixture().stores({ schema, maxConnections: 1 }).ready());
    const results = await Promise.allSettled(starts);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const versions = await admin.unsafe(`SELECT version FROM "${schema}".boardbot_migrations`);
    expect(versions.map((r) => r.version)).toEqual([1]);
  });
});

describe('createSchema: false', () => {
  it('refuses, naming the missing tables and the SQL to apply, then works once the team applied that SQL', async () => {
    const schema = freshSchema();
    await admin.unsafe(`CREATE SCHEMA "${schema}"`);
    const stores = fixture().stores({ schema, createSchema: false });
    const refusal = await stores.ready().catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'BOARDBOT_POSTGRES_SCHEMA_MISSING' });
    expect(String((refusal as Error).message)).toContain(
      'missing: boardbot_sessions, boardbot_cooldowns, boardbot_positions',
    );
    expect(String((refusal as Error).message)).toContain('node_modules/@boardbot/postgres/sql/');
    expect(await tablesIn(schema)).toEqual([]);

    // The team's own migration: the published files, in their schema, without the stores' version table.
    for (const m of await readPostgresMigrations()) {
      await admin.begin(async (tx) => {
        await tx.unsafe(`SET LOCAL search_path TO "${schema}"`);
        await tx.unsafe(m.sql).simple();
      });
    }
    expect(await stores.sessions.write('k', 0, { data: 1, shape: 1, expiresAt: null, applied: [] })).toBe(true);
    expect(await tablesIn(schema)).not.toContain('boardbot_migrations');
  });
});

describe('a failed start', () => {
  it('is BOARDBOT_POSTGRES_MIGRATION_FAILED when the user may not create tables, and leaves nothing behind', async () => {
    const schema = freshSchema();
    await admin.unsafe(`CREATE SCHEMA "${schema}"`);
    await admin.unsafe(`CREATE ROLE "${schema}_bot" LOGIN`);
    await admin.unsafe(`GRANT USAGE ON SCHEMA "${schema}" TO "${schema}_bot"`);
    const url = new URL(fixture().server.url);
    url.username = `${schema}_bot`;
    const refusal = await postgresStores({ url: url.toString(), schema })
      .ready()
      .catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'BOARDBOT_POSTGRES_MIGRATION_FAILED' });
    expect(String((refusal as Error).message)).toContain('SQLSTATE 42501');
    expect(await tablesIn(schema)).toEqual([]);
  });

  it('is BOARDBOT_POSTGRES_UNAVAILABLE, without the password, when nothing listens; the next use tries again', async () => {
    const port = await vacantPort();
    const stores = postgresStores({ url: `postgres://bot:s3cret-pw@127.0.0.1:${port}/app`, connectTimeoutMs: 2000 });
    const refusal = await stores.position.load({ apiUrl: 'http://api', appId: 'a' }).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'BOARDBOT_POSTGRES_UNAVAILABLE' });
    expect(String((refusal as Error).message)).toContain(`postgres://bot@127.0.0.1:${port}/app`);
    expect(String((refusal as Error).message)).toContain('ECONNREFUSED');
    expect(String((refusal as Error).message)).not.toContain('s3cret-pw');
    expect(stores.position.description).not.toContain('s3cret-pw');
    const again = await stores.ready().catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'BOARDBOT_POSTGRES_UNAVAILABLE' });
    expect(again).not.toBe(refusal);
  });
});
