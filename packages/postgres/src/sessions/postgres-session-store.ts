import type { SessionRecord, SessionStore, SessionValue } from '@boardbot/core';
import type { PostgresConnection } from '../connection/connection.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Sessions, conversations, schedule claims, answer records and editable links in PostgreSQL, shared by
 * every process of a bot that uses the same database and schema: one row per key, and each write one
 * statement that checks the version and raises it (an `UPDATE ... WHERE version = $expected`, or an
 * `INSERT ... ON CONFLICT DO NOTHING` for a first write), so two processes that change one session
 * never lose an update. Session keys already name the app, so two bots sharing a schema never share one.
 *
 * The value is kept as the JSON text the bot wrote (a `json` column), read back exactly as written.
 * Whether a session has expired is decided when it is read, by its `expiresAt` on the bot's clock; the
 * row is removed by a sweep a day after that, and a deleted session's row (its raised version) a week
 * after the delete, as the Redis store lets Redis reclaim them.
 */
export class PostgresSessionStore implements SessionStore {
  readonly description: string;
  private readonly sql: { read: string; create: string; update: string; sweep: string };

  /** @param connection - the stores' shared client */
  constructor(private readonly connection: PostgresConnection) {
    this.description = `${connection.description} sessions`;
    const t = connection.table('boardbot_sessions');
    this.sql = {
      read: `SELECT version, value::text AS value FROM ${t} WHERE key = $1`,
      create: `INSERT INTO ${t} (key, version, value, drop_at) VALUES ($1, 1, $2::text::json, $3) ON CONFLICT (key) DO NOTHING`,
      update: `UPDATE ${t} SET version = version + 1, value = $2::text::json, drop_at = $3 WHERE key = $1 AND version = $4`,
      sweep: `DELETE FROM ${t} WHERE key IN (SELECT key FROM ${t} WHERE drop_at < $1 LIMIT 1000 FOR UPDATE SKIP LOCKED)`,
    };
  }

  async read(key: string): Promise<SessionRecord | undefined> {
    const [row] = await this.connection.query<{ version: string; value: string | null }>(this, this.sql.read, [key]);
    if (row === undefined) return undefined;
    return { version: Number(row.version), value: row.value === null ? null : (JSON.parse(row.value) as SessionValue) };
  }

  async write(key: string, expected: number, value: SessionValue | null): Promise<boolean> {
    const json = value === null ? null : JSON.stringify(value);
    const dropAt =
      value === null ? Date.now() + 7 * DAY_MS : value.expiresAt === null ? null : value.expiresAt + DAY_MS;
    const result =
      expected === 0
        ? await this.connection.query(this, this.sql.create, [key, json, dropAt])
        : await this.connection.query(this, this.sql.update, [key, json, dropAt, expected]);
    return result.count === 1;
  }

  /**
   * Removes up to 1,000 rows whose time is over (expired a day ago, deleted a week ago).
   * @param now - the time to compare with, in epoch ms @defaultValue `Date.now()`
   * @returns how many rows it removed
   */
  async sweep(now: number = Date.now()): Promise<number> {
    return (await this.connection.query(undefined, this.sql.sweep, [now])).count;
  }

  async close(): Promise<void> {
    await this.connection.release(this);
  }
}
