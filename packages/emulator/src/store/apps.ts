import type { App } from '@boardbot/protocol';
import type { TokenStrength } from '../control/schemas/responses.js';
import type { Db } from './db.js';

/** An app as stored: its record, the hash of its token and its event-log cursors. */
export interface AppRow {
  id: string;
  name: string;
  description: string | null;
  bot_user_id: string;
  token_hash: string;
  /** How strong the token was judged when it was made; `unknown` for apps stored before that. */
  token_strength: TokenStrength;
  created_at: string;
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
  constructor(private readonly db: Db) {}

  private readonly insertStmt = this.db.prepare(
    'INSERT INTO apps (id, name, description, bot_user_id, token_hash, token_strength, created_at) VALUES (@id, @name, @description, @bot_user_id, @token_hash, @token_strength, @created_at)',
  );
  private readonly byIdStmt = this.db.prepare<[string], AppRow>('SELECT * FROM apps WHERE id = ?');
  private readonly byTokenStmt = this.db.prepare<[string], AppRow>('SELECT * FROM apps WHERE token_hash = ?');
  private readonly byNameStmt = this.db.prepare<[string], AppRow>(
    'SELECT * FROM apps WHERE name = ? ORDER BY rowid LIMIT 1',
  );
  private readonly allStmt = this.db.prepare<[], AppRow>('SELECT * FROM apps ORDER BY rowid');
  private readonly setTokenStmt = this.db.prepare('UPDATE apps SET token_hash = ?, token_strength = ? WHERE id = ?');
  private readonly installedStmt = this.db
    .prepare<[string], string>(
      'SELECT a.id FROM members m JOIN apps a ON a.bot_user_id = m.user_id WHERE m.board_id = ? ORDER BY a.rowid',
    )
    .pluck();
  private readonly prunedStmt = this.db.prepare('UPDATE apps SET pruned_through = max(pruned_through, ?) WHERE id = ?');
  // Every app API request authenticates and every send fans out to the board's apps: both are cached,
  // and dropped whenever apps or memberships change.
  private readonly byTokenCache = new Map<string, AppRow | undefined>();
  private readonly installedCache = new Map<string, string[]>();

  /** Stores a new app. */
  insert(app: Omit<AppRow, 'pruned_through'>): void {
    this.insertStmt.run(app);
    this.invalidate();
  }

  /** The app with this id. */
  byId(id: string): AppRow | undefined {
    return this.byIdStmt.get(id);
  }

  /** The app whose token has this SHA-256 (hex). */
  byTokenHash(hash: string): AppRow | undefined {
    if (this.byTokenCache.has(hash)) return this.byTokenCache.get(hash);
    const row = this.byTokenStmt.get(hash);
    // Only known tokens are cached, so unknown ones cannot grow the map.
    if (row) this.byTokenCache.set(hash, row);
    return row;
  }

  /** The oldest app with this name (the seed finds `dev-bot` by name). */
  byName(name: string): AppRow | undefined {
    return this.byNameStmt.get(name);
  }

  /** Every app, oldest first. */
  all(): AppRow[] {
    return this.allStmt.all();
  }

  /** Replaces the app's token: its hash and the strength it was judged to have. */
  setToken(appId: string, hash: string, strength: TokenStrength): void {
    this.setTokenStmt.run(hash, strength, appId);
    this.invalidate();
  }

  /** Ids of the apps installed on a board. */
  installedOn(boardId: string): string[] {
    let ids = this.installedCache.get(boardId);
    if (!ids) {
      ids = this.installedStmt.all(boardId);
      this.installedCache.set(boardId, ids);
    }
    return ids;
  }

  /** Records that events up to `id` were removed by retention. */
  markPruned(appId: string, id: number): void {
    this.prunedStmt.run(id, appId);
    this.invalidate();
  }

  /** Drops cached rows (after a change, a rollback or a reset). */
  invalidate(): void {
    this.byTokenCache.clear();
    this.installedCache.clear();
  }
}
