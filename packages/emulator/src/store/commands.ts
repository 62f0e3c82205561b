import type { Command } from '@boardbot/protocol';
import type { Db } from './db.js';

/** Registered slash commands, in the order the app gave them. */
export class CommandRepository {
  constructor(private readonly db: Db) {}

  private readonly listStmt = this.db
    .prepare<[string], string>('SELECT json FROM commands WHERE app_id = ? ORDER BY position')
    .pluck();
  private readonly clearStmt = this.db.prepare('DELETE FROM commands WHERE app_id = ?');
  private readonly insertStmt = this.db.prepare(
    'INSERT INTO commands (id, app_id, position, name, json) VALUES (?, ?, ?, ?, ?)',
  );
  // Every invocation reads its board's apps' commands: parsed once per change, not per request.
  private readonly cache = new Map<string, readonly Command[]>();

  /** The app's commands (shared: do not modify them). */
  list(appId: string): readonly Command[] {
    let commands = this.cache.get(appId);
    if (!commands) {
      commands = this.listStmt.all(appId).map((j) => JSON.parse(j) as Command);
      this.cache.set(appId, commands);
    }
    return commands;
  }

  /** Replaces the app's whole set (call inside a transaction). */
  replace(appId: string, commands: readonly Command[]): void {
    this.cache.delete(appId);
    this.clearStmt.run(appId);
    commands.forEach((c, i) => {
      this.insertStmt.run(c.id, appId, i, c.name, JSON.stringify(c));
    });
  }

  /** Drops the cached lists (after a rollback or a reset). */
  invalidate(): void {
    this.cache.clear();
  }
}
