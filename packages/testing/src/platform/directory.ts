import type { ControlClient } from '@boardbot/emulator/control';
import type { Board, UserProfile } from '@boardbot/protocol';
import { TestOptionsError } from '../errors.js';

/**
 * Names to ids and back for boards and people, read from the control API and kept, so tests speak
 * of `'general'` and `'alice'` while the platform speaks in UUIDs.
 */
export class Directory {
  private readonly boards = new Map<string, Board>();
  private readonly users = new Map<string, UserProfile>();

  /** @param control - the control API */
  constructor(private readonly control: ControlClient) {}

  /** Reads the platform's boards and users again. */
  async refresh(): Promise<void> {
    const state = await this.control.state();
    for (const b of state.boards) this.boards.set(b.name, b);
    for (const u of state.users) this.users.set(u.username, u);
  }

  /** Remembers a board created by the harness. */
  addBoard(board: Board): void {
    this.boards.set(board.name, board);
  }

  /** Remembers a person created by the harness. */
  addUser(user: UserProfile): void {
    this.users.set(user.username, user);
  }

  /** The board named `name`; reads the platform again once before giving up. */
  async board(name: string): Promise<Board> {
    if (!this.boards.has(name)) await this.refresh();
    const board = this.boards.get(name);
    if (!board) {
      const known = [...this.boards.keys()].join(', ');
      throw new TestOptionsError(
        `No board named "${name}" (boards: ${known}). Create it first with platform.createBoard('${name}').`,
      );
    }
    return board;
  }

  /** The name of the board with this id, if known (for reports). */
  boardName(id: string): string | undefined {
    for (const b of this.boards.values()) if (b.id === id) return b.name;
    return undefined;
  }

  /** The person with this username, if the platform has one. */
  async user(username: string): Promise<UserProfile | undefined> {
    if (!this.users.has(username)) await this.refresh();
    return this.users.get(username);
  }
}
