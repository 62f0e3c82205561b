import { randomUUID } from 'node:crypto';
import { type PostgresServer, startPostgresServer } from '@boardbot/test-support';
import { afterAll, beforeAll } from 'vitest';
import { type PostgresStores, type PostgresStoresOptions, postgresStores } from '../../src/index.js';

/** A real PostgreSQL for the test file, and stores on it. */
export interface PostgresFixture {
  server: PostgresServer;
  /** Stores in a schema of their own (a fresh one unless `options.schema` names one), closed after the file. */
  stores(options?: Partial<PostgresStoresOptions>): PostgresStores;
}

/** A schema name no other test uses. */
export const freshSchema = (): string => `t_${randomUUID().replaceAll('-', '')}`;

/**
 * Starts a real PostgreSQL server for the test file (before its tests, stopped after); every test
 * gets it through the returned getter, and makes stores in a schema of its own, so tests stand alone.
 */
export function usePostgres(): () => PostgresFixture {
  let fixture: PostgresFixture | undefined;
  const opened: PostgresStores[] = [];
  beforeAll(async () => {
    const server = await startPostgresServer();
    fixture = {
      server,
      stores: (options = {}) => {
        const stores = postgresStores({ url: server.url, schema: freshSchema(), ...options });
        opened.push(stores);
        return stores;
      },
    };
  }, 60_000);
  afterAll(async () => {
    for (const stores of opened) await stores.close();
    await fixture?.server.close();
  });
  return () => {
    if (!fixture) throw new Error('the PostgreSQL server did not start');
    return fixture;
  };
}
