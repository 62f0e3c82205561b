import type { Interaction } from '@boardbot/protocol';
import type { Db } from './db.js';

/** An interaction as stored: without its token, which is kept only as a SHA-256. */
export type StoredInteraction = Omit<Interaction, 'token'>;

/** A stored interaction with its answer count and expiry. */
export interface InteractionRow {
  id: string;
  app_id: string;
  board_id: string;
  token_hash: string;
  expires_at_ms: number;
  answers: number;
  json: string;
}

/**
 * Unanswered interactions whose token expired in `(?, ?]`, in expiry order. Its `answers = 0` is what
 * lets SQLite use the partial index `interactions_unanswered_by_expiry` (migration 4).
 */
export const EXPIRED_BETWEEN_SQL =
  'SELECT * FROM interactions WHERE answers = 0 AND expires_at_ms > ? AND expires_at_ms <= ? ORDER BY expires_at_ms';

/** Slash-command invocations and the messages that answered them. */
export class InteractionRepository {
  constructor(private readonly db: Db) {}

  private readonly insertStmt = this.db.prepare(
    'INSERT INTO interactions (id, app_id, board_id, token_hash, expires_at_ms, json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  private readonly byIdStmt = this.db.prepare<[string], InteractionRow>('SELECT * FROM interactions WHERE id = ?');
  private readonly byTokenStmt = this.db.prepare<[string], InteractionRow>(
    'SELECT * FROM interactions WHERE token_hash = ?',
  );
  private readonly countAnswerStmt = this.db
    .prepare<[string], number>('UPDATE interactions SET answers = answers + 1 WHERE id = ? RETURNING answers')
    .pluck();
  private readonly addAnswerStmt = this.db.prepare(
    'INSERT INTO interaction_answers (interaction_id, n, board_id, seq) VALUES (?, ?, ?, ?)',
  );
  private readonly answersStmt = this.db
    .prepare<[string], string>(
      'SELECT m.json FROM interaction_answers a JOIN messages m ON m.board_id = a.board_id AND m.seq = a.seq WHERE a.interaction_id = ? ORDER BY a.n',
    )
    .pluck();
  private readonly listStmt = this.db.prepare<[number], InteractionRow>(
    'SELECT * FROM interactions ORDER BY rowid DESC LIMIT ?',
  );
  private readonly listByBoardStmt = this.db.prepare<[string, number], InteractionRow>(
    'SELECT * FROM interactions WHERE board_id = ? ORDER BY rowid DESC LIMIT ?',
  );
  private readonly expiredStmt = this.db.prepare<[number, number], InteractionRow>(EXPIRED_BETWEEN_SQL);

  /**
   * Stores a new interaction under the hash of its token.
   *
   * @param json - `interaction` as JSON, when the caller has it already.
   */
  insert(
    interaction: StoredInteraction,
    tokenHash: string,
    expiresAtMs: number,
    json = JSON.stringify(interaction),
  ): void {
    this.insertStmt.run(interaction.id, interaction.app_id, interaction.board_id, tokenHash, expiresAtMs, json);
  }

  /** The interaction with this id. */
  byId(id: string): InteractionRow | undefined {
    return this.byIdStmt.get(id);
  }

  /** The interaction whose token has this SHA-256 (hex). */
  byTokenHash(hash: string): InteractionRow | undefined {
    return this.byTokenStmt.get(hash);
  }

  /** Records message `(boardId, seq)` as the next answer; returns the answer's number (1 for the reply). */
  addAnswer(interactionId: string, boardId: string, seq: number): number {
    const n = this.countAnswerStmt.get(interactionId) as number;
    this.addAnswerStmt.run(interactionId, n, boardId, seq);
    return n;
  }

  /** The answers' message JSON texts, in order. */
  answersJson(interactionId: string): string[] {
    return this.answersStmt.all(interactionId);
  }

  /** Newest interactions first, of one board or of all. */
  list(limit: number, boardId?: string): InteractionRow[] {
    return boardId === undefined ? this.listStmt.all(limit) : this.listByBoardStmt.all(boardId, limit);
  }

  /** Unanswered interactions whose token expired in `(fromMs, toMs]`, in expiry order. */
  expiredBetween(fromMs: number, toMs: number): InteractionRow[] {
    return this.expiredStmt.all(fromMs, toMs);
  }
}
