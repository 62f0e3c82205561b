import type { Db } from './db.js';

/** A remembered first answer to an `Idempotency-Key`. */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string;
  created_at_ms: number;
}

/** Stored `Idempotency-Key` answers, scoped to the credential that sent them. */
export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  private readonly getStmt = this.db.prepare<[string, string], IdempotencyRecord>(
    'SELECT fingerprint, status, body, created_at_ms FROM idempotency WHERE scope = ? AND key = ?',
  );
  private readonly putStmt = this.db.prepare(
    'INSERT OR REPLACE INTO idempotency (scope, key, fingerprint, status, body, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)',
  );
  private readonly pruneStmt = this.db.prepare('DELETE FROM idempotency WHERE created_at_ms < ?');
  private puts = 0;

  /** The record of `key` under `scope`. */
  get(scope: string, key: string): IdempotencyRecord | undefined {
    return this.getStmt.get(scope, key);
  }

  /** Stores the first answer (inside the transaction of the write it guards); returns the number of puts so far. */
  put(scope: string, key: string, record: IdempotencyRecord): number {
    this.putStmt.run(scope, key, record.fingerprint, record.status, record.body, record.created_at_ms);
    return ++this.puts;
  }

  /** Forgets records created before `cutoffMs`. */
  prune(cutoffMs: number): number {
    return this.pruneStmt.run(cutoffMs).changes;
  }
}
