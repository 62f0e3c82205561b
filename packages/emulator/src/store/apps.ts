import type { App } from '@boardbot/protocol';
import type { Db } from './db.js';

/** An app as stored: its record, the hash of its token and its event-log cursors. */
export interface AppRow {
  id: string;
  name: string;
  description: string | null;
  bot_user_id: string;
  token_hash: string;
  created_at: string;
  /** Last event id issued to this app (per-app ids). */
  last_event_id: number;
  /** Highest event id removed by retention; a resume from below it is a gap. */
  pruned_through: number;
}

/** The public record of an app row. */
export const toApp = (r: AppRow): App => ({
  id: r.id,
  name: r.name,
  description: r.description,
  bot_user_id: r.bot_user_id,
  created_at: r.created_at,
});

/** Apps, their tokens (as SHA-256 only) and their installs. */
export class AppRepository {
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly byTokenStmt;
  private readonly byNameStmt;
  private readonly allStmt;
  private readonly setTokenStmt;
  private readonly nextEventStmt;
  private readonly installedStmt;
  private readonly prunedStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      'INSERT INTO apps (id, name, description, bot_user_id, token_hash, created_at) VALUES (@id, @name, @description, @bot_user_id, @token_hash, @created_at)',
    );
    this.byIdStmt = db.prepare<[string], AppRow>('SELECT * FROM apps WHERE id = ?');
    this.byTokenStmt = db.prepare<[string], AppRow>('SELECT * FROM apps WHERE token_hash = ?');
    this.byNameStmt = db.prepare<[string], AppRow>('SELECT * FROM apps WHERE name = ? ORDER BY rowid LIMIT 1');
    this.allStmt = db.prepare<[], AppRow>('SELECT * FROM apps ORDER BY rowid');
    this.setTokenStmt = db.prepare('UPDATE apps SET token_hash = ? WHERE id = ?');
    this.nextEventStmt = db
      .prepare<[string], number>(
        'UPDATE apps SET last_event_id = last_event_id + 1 WHERE id = ? RETURNING last_event_id',
      )
      .pluck();
    this.installedStmt = db
      .prepare<[string], string>(
        'SELECT a.id FROM members m JOIN apps a ON a.bot_user_id = m.user_id WHERE m.board_id = ? ORDER BY a.rowid',
      )
      .pluck();
    this.prunedStmt = db.prepare('UPDATE apps SET pruned_through = max(pruned_through, ?) WHERE id = ?');
  }

  /** Stores a new app. */
  insert(app: Omit<AppRow, 'last_event_id' | 'pruned_through'>): void {
    this.insertStmt.run(app);
  }

  /** The app with this id. */
  byId(id: string): AppRow | undefined {
    return this.byIdStmt.get(id);
  }

  /** The app whose token has this SHA-256 (hex). */
  byTokenHash(hash: string): AppRow | undefined {
    return this.byTokenStmt.get(hash);
  }

  /** The oldest app with this name (the seed finds `dev-bot` by name). */
  byName(name: string): AppRow | undefined {
    return this.byNameStmt.get(name);
  }

  /** Every app, oldest first. */
  all(): AppRow[] {
    return this.allStmt.all();
  }

  /** Replaces the app's token hash. */
  setTokenHash(appId: string, hash: string): void {
    this.setTokenStmt.run(hash, appId);
  }

  /** Takes the app's next event id (CONTRACT: strictly increasing per app, never reused). */
  nextEventId(appId: string): number {
    return this.nextEventStmt.get(appId) as number;
  }

  /** Ids of the apps installed on a board. */
  installedOn(boardId: string): string[] {
    return this.installedStmt.all(boardId);
  }

  /** Records that events up to `id` were removed by retention. */
  markPruned(appId: string, id: number): void {
    this.prunedStmt.run(id, appId);
  }
}
