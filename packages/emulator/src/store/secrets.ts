import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';

/**
 * The emulator's own secrets, kept in its database so that an emulator restarted on the same file
 * derives the same values (the interaction tokens of its event log).
 */
export class SecretRepository {
  constructor(private readonly db: Db) {}

  private readonly getStmt = this.db.prepare<[string], string>('SELECT value FROM secrets WHERE name = ?').pluck();
  private readonly insertStmt = this.db.prepare('INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)');

  /** The secret called `name`: 32 random bytes (base64url), made and stored on first use. */
  get(name: string): string {
    const known = this.getStmt.get(name);
    if (known !== undefined) return known;
    this.insertStmt.run(name, randomBytes(32).toString('base64url'));
    return this.getStmt.get(name) as string;
  }
}
