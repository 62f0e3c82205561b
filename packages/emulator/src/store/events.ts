import type { Db } from './db.js';

/** One entry of an app's event log: the frame's id, name and `data:` JSON. */
export interface EventRow {
  id: number;
  name: string;
  data: string;
}

/** The durable per-app event log the gateway replays from (`Last-Event-ID`). */
export class EventRepository {
  constructor(private readonly db: Db) {}

  private readonly insertStmt = this.db.prepare(
    'INSERT INTO events (app_id, id, name, data, created_at_ms) VALUES (?, ?, ?, ?, ?)',
  );
  private readonly afterStmt = this.db.prepare<[string, number, number, number], EventRow>(
    'SELECT id, name, data FROM events WHERE app_id = ? AND id > ? AND id <= ? ORDER BY id LIMIT ?',
  );
  private readonly createdAtStmt = this.db
    .prepare<[string, number], number>('SELECT created_at_ms FROM events WHERE app_id = ? AND id = ?')
    .pluck();
  private readonly pruneStmt = this.db.prepare('DELETE FROM events WHERE app_id = ? AND id <= ?');

  /** Appends an event (its id was taken from the app's counter in the same transaction). */
  insert(appId: string, id: number, name: string, data: string, nowMs: number): void {
    this.insertStmt.run(appId, id, name, data, nowMs);
  }

  /** Up to `limit` events of the app with an id in `(afterId, upTo]`, in order. */
  after(appId: string, afterId: number, limit: number, upTo = Number.MAX_SAFE_INTEGER): EventRow[] {
    return this.afterStmt.all(appId, afterId, upTo, limit);
  }

  /**
   * Removes the app's events that are not among its last `keepCount` and older than `keepSinceMs`
   * (CONTRACT: at least the last 10,000 events or 24 h are retained); returns the highest removed id,
   * or 0. Event times grow with their ids, so one point lookup decides: if the newest candidate
   * (`lastId - keepCount`) is old enough, so is everything below it; if not, nothing is removed yet.
   */
  prune(appId: string, lastId: number, keepCount: number, keepSinceMs: number): number {
    const bound = lastId - keepCount;
    if (bound <= 0) return 0;
    const createdAt = this.createdAtStmt.get(appId, bound);
    if (createdAt === undefined || createdAt > keepSinceMs) return 0;
    this.pruneStmt.run(appId, bound);
    return bound;
  }
}
