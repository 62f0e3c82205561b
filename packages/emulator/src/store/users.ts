import type { UserProfile } from '@boardbot/protocol';
import type { Db } from './db.js';

/** A row of `users`: a profile with `is_bot` as SQLite stores it. */
export type UserRow = Omit<UserProfile, 'is_bot'> & { is_bot: number };

/** The profile of a row (of `users`, or of a query that selects its columns). */
export const toProfile = (r: UserRow): UserProfile => ({
  id: r.id,
  username: r.username,
  display_name: r.display_name,
  avatar_url: r.avatar_url,
  is_bot: r.is_bot === 1,
  created_at: r.created_at,
});

/** People and bot users. */
export class UserRepository {
  constructor(private readonly db: Db) {}

  private readonly insertStmt = this.db.prepare(
    'INSERT INTO users (id, username, display_name, avatar_url, is_bot, created_at) VALUES (@id, @username, @display_name, @avatar_url, @is_bot, @created_at)',
  );
  private readonly byIdStmt = this.db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?');
  private readonly byUsernameStmt = this.db.prepare<[string], UserRow>('SELECT * FROM users WHERE username = ?');
  private readonly allStmt = this.db.prepare<[], UserRow>('SELECT * FROM users ORDER BY rowid');
  private readonly sharesBoardStmt = this.db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one FROM members a JOIN members b ON a.board_id = b.board_id WHERE a.user_id = ? AND b.user_id = ? LIMIT 1',
  );

  /** Stores a new user. */
  insert(user: UserProfile): void {
    this.insertStmt.run({ ...user, is_bot: user.is_bot ? 1 : 0 });
  }

  /** The user with this id. */
  byId(id: string): UserProfile | undefined {
    const row = this.byIdStmt.get(id);
    return row && toProfile(row);
  }

  /** The user with this username. */
  byUsername(username: string): UserProfile | undefined {
    const row = this.byUsernameStmt.get(username);
    return row && toProfile(row);
  }

  /** Every user, oldest first. */
  all(): UserProfile[] {
    return this.allStmt.all().map(toProfile);
  }

  /** Whether the two users are members of at least one common board. */
  shareABoard(a: string, b: string): boolean {
    return this.sharesBoardStmt.get(a, b) !== undefined;
  }
}
