import { AppRepository } from './apps.js';
import { BoardRepository } from './boards.js';
import { CommandRepository } from './commands.js';
import { type Db, openDatabase } from './db.js';
import { EventRepository } from './events.js';
import { IdempotencyRepository } from './idempotency.js';
import { InteractionRepository } from './interactions.js';
import { MessageRepository } from './messages.js';
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
  readonly users: UserRepository;
  readonly boards: BoardRepository;
  readonly apps: AppRepository;
  readonly messages: MessageRepository;
  readonly commands: CommandRepository;
  readonly interactions: InteractionRepository;
  readonly events: EventRepository;
  readonly idempotency: IdempotencyRepository;
  // One transaction wrapper for every write: better-sqlite3 builds a new one per `db.transaction(fn)`
  // call, which costs as much as the statements of a send.
  private readonly inTransaction: (fn: () => unknown) => unknown;

  /** @param db - An open, migrated database (see {@link openStore}). */
  constructor(readonly db: Db) {
    this.users = new UserRepository(db);
    this.boards = new BoardRepository(db);
    this.apps = new AppRepository(db);
    this.messages = new MessageRepository(db);
    this.commands = new CommandRepository(db);
    this.interactions = new InteractionRepository(db);
    this.events = new EventRepository(db);
    this.idempotency = new IdempotencyRepository(db);
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
  }

  /** Runs `fn` in one transaction: all of its writes commit together or none does. */
  transaction<T>(fn: () => T): T {
    return this.inTransaction(fn) as T;
  }

  /** Deletes every row (the control API's reset); the schema stays. */
  clear(): void {
    this.transaction(() => {
      for (const t of TABLES) this.db.exec(`DELETE FROM ${t}`);
    });
  }

  /** Closes the database (a WAL checkpoint happens on close). */
  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Opens the database at `path` (`':memory:'` for none) and wraps it in a {@link Store}. */
export function openStore(path: string): Store {
  return new Store(openDatabase(path));
}
