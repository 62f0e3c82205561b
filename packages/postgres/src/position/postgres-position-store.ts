import type { Position, PositionKey, PositionStore } from '@boardbot/core';
import type { PostgresConnection } from '../connection/connection.js';

/**
 * Resume points in PostgreSQL, one row per platform (API URL) and app: a bot whose machine is gone
 * (a container without a volume, a new host) resumes where it was. A save is one upsert, so a crash
 * at any moment leaves the previous point or the new one, whole. One process reads a point at a time
 * (two processes on one point would both handle the events: for several, use replicas).
 */
export class PostgresPositionStore implements PositionStore {
  readonly description: string;
  private readonly sql: { load: string; save: string };

  /** @param connection - the stores' shared client */
  constructor(private readonly connection: PostgresConnection) {
    this.description = `${connection.description} positions`;
    const t = connection.table('boardbot_positions');
    this.sql = {
      load: `SELECT event_id, boards::text AS boards, saved_at FROM ${t} WHERE api_url = $1 AND app_id = $2`,
      save:
        `INSERT INTO ${t} (api_url, app_id, event_id, boards, saved_at) VALUES ($1, $2, $3, $4::text::json, $5) ` +
        'ON CONFLICT (api_url, app_id) DO UPDATE SET event_id = EXCLUDED.event_id, boards = EXCLUDED.boards, ' +
        'saved_at = EXCLUDED.saved_at',
    };
  }

  async load(key: PositionKey): Promise<Position | undefined> {
    const [row] = await this.connection.query<{ event_id: string | null; boards: string; saved_at: number }>(
      this,
      this.sql.load,
      [key.apiUrl, key.appId],
    );
    if (row === undefined) return undefined;
    return {
      eventId: row.event_id ?? undefined,
      boards: JSON.parse(row.boards) as Record<string, number>,
      savedAt: Number(row.saved_at),
    };
  }

  async save(key: PositionKey, position: Position): Promise<void> {
    const { eventId, boards, savedAt } = position;
    await this.connection.query(this, this.sql.save, [
      key.apiUrl,
      key.appId,
      eventId ?? null,
      JSON.stringify(boards),
      savedAt,
    ]);
  }

  async close(): Promise<void> {
    await this.connection.release(this);
  }
}
