import type { CooldownMetadata, CooldownStore } from '@boardbot/core';
import type { PostgresConnection } from '../connection/connection.js';

// The database's clock, in epoch ms: every process of the bot counts on the same one.
const NOW_MS = '(extract(epoch FROM now()) * 1000)::bigint';

/**
 * Cooldown windows in PostgreSQL, shared by every process of a bot that uses the database: a person
 * held by `@Cooldown` in one is held in all. A window is a row of the uses still in it (their times
 * and ids), and a take is one statement on the database's clock: an insert, or on conflict an update
 * of the locked row that drops the uses out of the window and adds this one if there is room, so two
 * processes taking at once never both take the last use. A use taken again under the same id (an
 * event handled again) counts once. Rows are removed by a sweep once their newest use left the window.
 */
export class PostgresCooldowns implements CooldownStore {
  /** Where the windows are, for the logs. */
  readonly description: string;
  private readonly sql: { take: string; sweep: string };

  /** @param connection - the stores' shared client */
  constructor(private readonly connection: PostgresConnection) {
    this.description = `${connection.description} cooldowns`;
    const t = connection.table('boardbot_cooldowns');
    // $1 key, $2 use id, $3 window ms, $4 uses. EXCLUDED holds this use alone: its time and id.
    this.sql = {
      take: `INSERT INTO ${t} AS c (key, stamps, ids, drop_at)
SELECT $1, ARRAY[n.ms], ARRAY[$2::text], n.ms + $3::bigint FROM (SELECT ${NOW_MS} AS ms) n
ON CONFLICT (key) DO UPDATE SET (stamps, ids, drop_at) = (
  SELECT
    CASE WHEN k.has OR cardinality(k.stamps) >= $4::int THEN k.stamps ELSE k.stamps || EXCLUDED.stamps END,
    CASE WHEN k.has OR cardinality(k.stamps) >= $4::int THEN k.ids ELSE k.ids || EXCLUDED.ids END,
    EXCLUDED.drop_at
  FROM (
    SELECT coalesce(array_agg(u.s ORDER BY u.s, u.i), '{}') AS stamps,
      coalesce(array_agg(u.i ORDER BY u.s, u.i), '{}') AS ids,
      coalesce(bool_or(u.i = EXCLUDED.ids[1]), false) AS has
    FROM unnest(c.stamps, c.ids) AS u(s, i)
    WHERE u.s > EXCLUDED.stamps[1] - $3::bigint
  ) k
)
RETURNING stamps, ids, ${NOW_MS} AS now`,
      sweep: `DELETE FROM ${t} WHERE key IN (SELECT key FROM ${t} WHERE drop_at < ${NOW_MS} LIMIT 1000 FOR UPDATE SKIP LOCKED)`,
    };
  }

  async take(key: string, cooldown: CooldownMetadata, useId: string): Promise<number> {
    const [row] = await this.connection.query<{ stamps: string[]; ids: string[]; now: string }>(
      undefined,
      this.sql.take,
      [key, useId, cooldown.ms, cooldown.uses],
    );
    if (row === undefined || row.ids.includes(useId)) return 0;
    const oldest = Math.min(...row.stamps.map(Number));
    return Math.max(1, oldest + cooldown.ms - Number(row.now));
  }

  /**
   * Removes up to 1,000 windows whose uses have all left them, on the database's clock.
   * @returns how many it removed
   */
  async sweep(): Promise<number> {
    return (await this.connection.query(undefined, this.sql.sweep, [])).count;
  }
}
