import type { Board, Member } from '@boardbot/protocol';
import type { Db } from './db.js';
import { toProfile, type UserRow } from './users.js';

interface MemberRow extends UserRow {
  role: Member['role'];
  joined_at: string;
}

const BOARD_COLUMNS =
  'b.id, b.name, b.description, b.created_at, (SELECT count(*) FROM members m WHERE m.board_id = b.id) AS member_count';

const MEMBER_SELECT =
  'SELECT m.role, m.joined_at, u.id, u.username, u.display_name, u.avatar_url, u.is_bot, u.created_at FROM members m JOIN users u ON u.id = m.user_id';

// A row is a board, copied into a plain object of its own (whatever object the driver made).
const toBoard = (r: Board): Board => ({ ...r });

const toMember = (r: MemberRow): Member => ({ user: toProfile(r), role: r.role, joined_at: r.joined_at });

/** Boards, their memberships and their `seq` counters. */
export class BoardRepository {
  /**
   * @param db - The database.
   * @param onChange - Called after a membership changed (the app repository caches installs).
   */
  constructor(
    private readonly db: Db,
    private readonly onChange: () => void,
  ) {}

  private readonly insertStmt = this.db.prepare(
    'INSERT INTO boards (id, name, description, created_at) VALUES (@id, @name, @description, @created_at)',
  );
  private readonly byIdStmt = this.db.prepare<[string], Board>(`SELECT ${BOARD_COLUMNS} FROM boards b WHERE b.id = ?`);
  private readonly existsStmt = this.db.prepare<[string], { one: number }>('SELECT 1 AS one FROM boards WHERE id = ?');
  private readonly byNameStmt = this.db.prepare<[string], Board>(
    `SELECT ${BOARD_COLUMNS} FROM boards b WHERE b.name = ? ORDER BY b.rowid LIMIT 1`,
  );
  private readonly allStmt = this.db.prepare<[], Board>(`SELECT ${BOARD_COLUMNS} FROM boards b ORDER BY b.rowid`);
  private readonly ofUserStmt = this.db.prepare<[string], Board>(
    `SELECT ${BOARD_COLUMNS} FROM boards b JOIN members mm ON mm.board_id = b.id WHERE mm.user_id = ? ORDER BY b.rowid`,
  );
  private readonly idsOfUserStmt = this.db
    .prepare<[string], string>(
      'SELECT b.id FROM boards b JOIN members m ON m.board_id = b.id WHERE m.user_id = ? ORDER BY b.rowid',
    )
    .pluck();
  private readonly isMemberStmt = this.db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one FROM members WHERE board_id = ? AND user_id = ?',
  );
  private readonly membersStmt = this.db.prepare<[string], MemberRow>(
    `${MEMBER_SELECT} WHERE m.board_id = ? ORDER BY m.joined_at, u.rowid`,
  );
  private readonly memberStmt = this.db.prepare<[string, string], MemberRow>(
    `${MEMBER_SELECT} WHERE m.board_id = ? AND m.user_id = ?`,
  );
  private readonly upsertMemberStmt = this.db.prepare(
    'INSERT INTO members (board_id, user_id, role, joined_at) VALUES (?, ?, ?, ?) ON CONFLICT (board_id, user_id) DO UPDATE SET role = excluded.role',
  );
  private readonly removeMemberStmt = this.db.prepare('DELETE FROM members WHERE board_id = ? AND user_id = ?');
  // Membership answers, cached: every send checks that the app is installed on the board.
  private readonly memberCache = new Map<string, boolean>();

  /** Stores a new board. */
  insert(board: { id: string; name: string; description: string | null; created_at: string }): void {
    this.insertStmt.run(board);
  }

  /** The board with this id. */
  byId(id: string): Board | undefined {
    const row = this.byIdStmt.get(id);
    return row && toBoard(row);
  }

  /** Whether a board with this id exists (one index lookup; {@link byId} also counts its members). */
  exists(id: string): boolean {
    return this.existsStmt.get(id) !== undefined;
  }

  /** The oldest board with this name (the seed finds its boards by name). */
  byName(name: string): Board | undefined {
    const row = this.byNameStmt.get(name);
    return row && toBoard(row);
  }

  /** Every board, oldest first. */
  all(): Board[] {
    return this.allStmt.all().map(toBoard);
  }

  /** The boards `userId` is a member of, oldest first (for a bot user: where its app is installed). */
  ofUser(userId: string): Board[] {
    return this.ofUserStmt.all(userId).map(toBoard);
  }

  /** Ids of the boards `userId` is a member of. */
  idsOfUser(userId: string): string[] {
    return this.idsOfUserStmt.all(userId);
  }

  /** Whether `userId` is a member of `boardId`. */
  isMember(boardId: string, userId: string): boolean {
    const key = `${boardId}\n${userId}`;
    let member = this.memberCache.get(key);
    if (member === undefined) {
      member = this.isMemberStmt.get(boardId, userId) !== undefined;
      this.memberCache.set(key, member);
    }
    return member;
  }

  /** Drops cached answers (after a membership change, a rollback or a reset). */
  invalidate(): void {
    this.memberCache.clear();
  }

  /** Members of a board, in joining order. */
  members(boardId: string): Member[] {
    return this.membersStmt.all(boardId).map(toMember);
  }

  /** One membership. */
  member(boardId: string, userId: string): Member | undefined {
    const row = this.memberStmt.get(boardId, userId);
    return row && toMember(row);
  }

  /** Adds a member, or changes the role of an existing one (keeping `joined_at`). */
  upsertMember(boardId: string, userId: string, role: Member['role'], joinedAt: string): void {
    this.upsertMemberStmt.run(boardId, userId, role, joinedAt);
    this.memberCache.clear();
    this.onChange();
  }

  /** Removes a membership; whether there was one. */
  removeMember(boardId: string, userId: string): boolean {
    const removed = this.removeMemberStmt.run(boardId, userId).changes > 0;
    this.memberCache.clear();
    this.onChange();
    return removed;
  }
}
