import { AppRepository } from './apps.js';
import { BoardRepository } from './boards.js';
import { CommandRepository } from './commands.js';
import { Counters } from './counters.js';
import { type Db, isFilePath, openDatabase } from './db.js';
import { DatabaseLock } from './db-lock.js';
import { EventRepository } from './events.js';
import { IdempotencyRepository } from './idempotency.js';
import { InteractionRepository } from './interactions.js';
import { MessageRepository } from './messages.js';
import { SecretRepository } from './secrets.js';
import { UserRepository } from './users.js';

const TABLES = [
  'idempotency',
  'events',
  'interaction_answers',
  'interactions',
  'commands',
  'messages',
  'members',
  'apps',
  'boards',
  'users',
];

/** The database and one repository per table group, each with its prepared statements. */
export class Store {
  readonly users = new UserRepository(this.db);
  readonly apps = new AppRepository(this.db);
  readonly boards = new BoardRepository(this.db, () => this.apps.invalidate());
  readonly messages = new MessageRepository(this.db);
  readonly commands = new CommandRepository(this.db);
  readonly interactions = new InteractionRepository(this.db);
  readonly events = new EventRepository(this.db);
  readonly idempotency = new IdempotencyRepository(this.db);
  readonly secrets = new SecretRepository(this.db);
  private readonly counters: Counters;
  // One transaction wrapper for every write: building one per `db.transaction(fn)` call costs as
  // much as the statements of a send.
  private readonly inTransaction = this.db.transaction((fn: () => unknown) => fn());

  /**
   * @param db - An open, migrated database (see {@link openStore}).
   * @param lock - The hold on its file, let go on {@link close}; none for an in-memory database.
   */
  constructor(
    readonly db: Db,
    readonly lock?: DatabaseLock,
  ) {
    const maxSeq = db
      .prepare<[string], number>('SELECT coalesce(max(seq), 0) FROM messages WHERE board_id = ?')
      .pluck();
    const maxEvent = db.prepare<[string], number>('SELECT coalesce(max(id), 0) FROM events WHERE app_id = ?').pluck();
    this.counters = new Counters((key) => {
      const id = key.slice(2);
      return (key.startsWith('b:') ? maxSeq.get(id) : maxEvent.get(id)) ?? 0;
    });
  }

  /** Takes a board's next `seq` (CONTRACT: per board, from 1, strictly increasing, never reused). */
  nextSeq(boardId: string): number {
    return this.counters.next(`b:${boardId}`);
  }

  /** Takes an app's next event id (CONTRACT: strictly increasing per app, never reused). */
  nextEventId(appId: string): number {
    return this.counters.next(`e:${appId}`);
  }

  /** The id of the app's last committed event (0 if none): replays stop there. */
  lastEventId(appId: string): number {
    return this.counters.current(`e:${appId}`);
  }

  /**
   * Runs `fn` atomically: all of its writes happen or none does. At top level it is a transaction;
   * inside an open batch (see {@link begin}) it is a savepoint of it.
   */
  transaction<T>(fn: () => T): T {
    const mark = this.counters.mark();
    let result: T;
    try {
      result = this.inTransaction(fn) as T;
    } catch (err) {
      // Caches may hold what the rolled-back work read or wrote.
      this.counters.restore(mark);
      this.invalidateCaches();
      throw err;
    }
    if (!this.db.inTransaction) this.counters.commit();
    return result;
  }

  /** Opens a batch: the writes until {@link commit} are made durable together, by one commit. */
  begin(): void {
    this.db.exec('BEGIN IMMEDIATE');
  }

  /** Commits the open batch. */
  commit(): void {
    this.db.exec('COMMIT');
    this.counters.commit();
  }

  /** Abandons the open batch (its commit failed). */
  abort(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.counters.rollback();
    this.invalidateCaches();
  }

  /** The highest committed `seq` of a board: reads stop there, so they never show uncommitted messages. */
  committedSeq(boardId: string): number {
    return this.counters.current(`b:${boardId}`);
  }

  /**
   * A page of a board's messages as JSON texts, highest `seq` first, below `before` when given, and
   * never above the committed `seq` (a write still waiting for its group commit is not shown).
   */
  messagePage(boardId: string, limit: number, before?: number): string[] {
    const top = this.committedSeq(boardId) + 1;
    return this.messages.pageJson(boardId, limit, Math.min(before ?? top, top));
  }

  private invalidateCaches(): void {
    this.apps.invalidate();
    this.boards.invalidate();
    this.commands.invalidate();
  }

  /** Deletes every row (the control API's reset); the schema stays. */
  clear(): void {
    this.transaction(() => {
      for (const t of TABLES) this.db.exec(`DELETE FROM ${t}`);
    });
    this.counters.clear();
    this.invalidateCaches();
  }

  /** Closes the database (a WAL checkpoint happens on close), then lets go of its file. */
  close(): void {
    if (this.db.open) this.db.close();
    this.lock?.release();
  }
}

/**
 * Opens the database at `path` (`':memory:'` for none) and wraps it in a {@link Store}. A file is held
 * exclusively first (see {@link DatabaseLock}): a second emulator on it is refused before it reads it.
 *
 * @throws EmulatorDatabaseInUseError when another emulator holds the file.
 */
export function openStore(path: string): Store {
  if (!isFilePath(path)) return new Store(openDatabase(path));
  const lock = DatabaseLock.acquire(path);
  try {
    return new Store(openDatabase(path), lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}
