import type { Message } from '@boardbot/protocol';
import type { Db } from './db.js';

/** A stored message: the columns the rules need, and its JSON as served. */
export interface MessageRow {
  board_id: string;
  seq: number;
  id: string;
  author: string | null;
  deleted: number;
  json: string;
}

/** Messages, clustered by `(board_id, seq)` for keyset paging. */
export class MessageRepository {
  constructor(private readonly db: Db) {}

  private readonly insertStmt = this.db.prepare(
    'INSERT INTO messages (board_id, seq, id, author, deleted, json) VALUES (@board_id, @seq, @id, @author, @deleted, @json)',
  );
  private readonly byIdStmt = this.db.prepare<[string, string], MessageRow>(
    'SELECT * FROM messages WHERE id = ? AND board_id = ?',
  );
  private readonly updateStmt = this.db.prepare(
    'UPDATE messages SET json = ?, deleted = ? WHERE board_id = ? AND seq = ?',
  );
  private readonly pageBeforeStmt = this.db
    .prepare<[string, number, number], string>(
      'SELECT json FROM messages WHERE board_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
    )
    .pluck();

  /** Stores a new message; `json` is its serialized record. */
  insert(message: Message, json: string): void {
    this.insertStmt.run({
      board_id: message.board_id,
      seq: message.seq,
      id: message.id,
      author: message.author,
      deleted: message.deleted_at === null ? 0 : 1,
      json,
    });
  }

  /** The message `id` of `boardId`. */
  byId(boardId: string, id: string): MessageRow | undefined {
    return this.byIdStmt.get(id, boardId);
  }

  /** Replaces a message's record (edit, tombstone). */
  update(message: Message, json: string): void {
    this.updateStmt.run(json, message.deleted_at === null ? 0 : 1, message.board_id, message.seq);
  }

  /**
   * A page of messages as JSON texts, highest `seq` first, below `before`: one range scan of the
   * `(board_id, seq)` key, so its cost does not grow with the board.
   */
  pageJson(boardId: string, limit: number, before: number): string[] {
    return this.pageBeforeStmt.all(boardId, before, limit);
  }
}
