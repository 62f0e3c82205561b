import { describe, expect, it } from 'vitest';
import { DEFAULT_POSTGRES_OPTIONS, postgresStores, redactPostgresUrl, resolvePostgresOptions } from '../src/index.js';

describe('postgresStores() options', () => {
  it('fills in the defaults', () => {
    const o = resolvePostgresOptions({ url: 'postgres://bot@db/app' });
    expect(o).toMatchObject({ ...DEFAULT_POSTGRES_OPTIONS, url: 'postgres://bot@db/app', sql: undefined });
  });

  it.each([
    [{}, 'url', 'is required'],
    [{ url: 'mysql://db/app' }, 'url', 'must be a postgres://'],
    [{ url: 'postgres://db/app', schema: 'Bots' }, 'schema', 'must be 1 to 63 of a-z 0-9 _'],
    [{ url: 'postgres://db/app', schema: 'a"; DROP TABLE x; --' }, 'schema', 'must be 1 to 63'],
    [{ url: 'postgres://db/app', maxConnections: 0 }, 'maxConnections', 'must be an integer from 1 to 1000'],
    [{ url: 'postgres://db/app', connectTimeoutMs: 10 }, 'connectTimeoutMs', 'must be an integer from 100'],
    [{ url: 'postgres://db/app', sweepIntervalMs: 10 }, 'sweepIntervalMs', 'must be 0 (off)'],
  ])('refuses %j, naming %s', (options, option, problem) => {
    const refuse = () => postgresStores(options);
    expect(refuse).toThrow(expect.objectContaining({ code: 'BOARDBOT_POSTGRES_INVALID_OPTION' }));
    expect(refuse).toThrow(`postgresStores(): ${option} ${problem}`);
  });

  it('shows a URL without its password, in the user part or as a parameter', () => {
    expect(redactPostgresUrl('postgres://bot:pw1@db:5433/app?sslmode=require&password=pw2')).toBe(
      'postgres://bot@db:5433/app?sslmode=require',
    );
    expect(postgresStores({ url: 'postgres://bot:pw1@db/app' }).sessions.description).toBe(
      'postgres postgres://bot@db/app (schema public) sessions',
    );
  });
});
