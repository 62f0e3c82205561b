import type { BotEvent } from '../../kernel/event.js';
import { Fifo } from '../../kernel/fifo.js';

/** A message the intake set aside: read back over REST once its board has room. */
export interface AsideMessage {
  readonly id: string;
  readonly seq: number;
}

interface Board {
  /** Events of the board taken and not done (queued, running, or held by a burst). */
  held: number;
  /** Set aside, oldest first. */
  aside: Fifo<AsideMessage>;
  /** Whether a read-back of its set-aside messages is under way. */
  reading: boolean;
}

/**
 * Each board's share of the intake's bound, so that one board's flood cannot fill the bound and pause
 * the gateway for every board. While the intake holds at least `contended` events, a board that
 * holds `share` of them takes no more new messages: they are set aside (only their id and `seq` are
 * kept), and read back over REST, oldest first, once the board is down to half its share. Once a
 * board has a message set aside, its later messages are set aside behind it, so the board's messages
 * are still handled in order. Below `contended` a board may take more than its share: nothing waits.
 */
export class BoardShares {
  private readonly boards = new Map<string, Board>();
  /** A board with messages set aside reads them back once it holds this many or fewer. */
  private readonly low: number;
  /** Messages set aside and not read back yet, on every board. */
  private aside = 0;

  /**
   * @param share - most events one board holds while the intake is contended (at least 1)
   * @param contended - from how many events held in all the share applies
   */
  constructor(
    readonly share: number,
    private readonly contended: number,
  ) {
    this.low = Math.floor(share / 2);
  }

  /** Messages set aside and not read back yet, on every board. */
  get asideCount(): number {
    return this.aside;
  }

  /** One more event of the board taken. */
  add(boardId: string): void {
    const board = this.boards.get(boardId);
    if (board) board.held++;
    else this.boards.set(boardId, { held: 1, aside: new Fifo(), reading: false });
  }

  /**
   * One event of the board done.
   * @returns whether the board should read back set-aside messages now
   */
  done(boardId: string): boolean {
    const board = this.boards.get(boardId);
    if (!board) return false;
    board.held--;
    if (board.aside.size === 0 && board.held === 0) {
      this.boards.delete(boardId);
      return false;
    }
    return this.mayRead(board);
  }

  /**
   * Whether a new message of the board must be set aside: the board has some set aside already (the
   * new one goes behind them), or holds its share while the intake is contended.
   * @param held - the events the intake holds in all
   */
  full(boardId: string, held: number): boolean {
    const board = this.boards.get(boardId);
    if (!board) return false;
    return board.reading || board.aside.size > 0 || (board.held >= this.share && held >= this.contended);
  }

  /**
   * Sets a message aside, behind the board's others.
   * @returns whether it is the first of the board set aside now (the log says so once)
   */
  setAside(boardId: string, message: AsideMessage): boolean {
    let board = this.boards.get(boardId);
    if (!board) {
      board = { held: 0, aside: new Fifo(), reading: false };
      this.boards.set(boardId, board);
    }
    const first = board.aside.size === 0 && !board.reading;
    board.aside.push(message);
    this.aside++;
    return first;
  }

  /**
   * The set-aside messages to read back now, oldest first, as many as the board has room for (at most
   * `most`); the board counts as reading until {@link BoardShares.read} or {@link BoardShares.failed}.
   * @returns undefined when the board has none, no room, or reads already
   */
  next(boardId: string, most: number): AsideMessage[] | undefined {
    const board = this.boards.get(boardId);
    if (!board || !this.mayRead(board)) return undefined;
    board.reading = true;
    return board.aside.first(Math.min(most, this.share - board.held));
  }

  /**
   * The messages {@link BoardShares.next} gave were read back (taken, or found deleted).
   * @returns whether the board has none set aside any more
   */
  read(boardId: string, count: number): boolean {
    const board = this.boards.get(boardId);
    if (!board) return true;
    board.reading = false;
    for (let i = 0; i < count; i++) board.aside.shift();
    this.aside -= count;
    if (board.aside.size > 0) return false;
    if (board.held === 0) this.boards.delete(boardId);
    return true;
  }

  /** A read-back failed: its messages stay set aside, for the next try. */
  failed(boardId: string): void {
    const board = this.boards.get(boardId);
    if (board) board.reading = false;
  }

  private mayRead(board: Board): boolean {
    return !board.reading && board.aside.size > 0 && board.held <= this.low;
  }
}

/**
 * The board of an event, for its share: a message's or an interaction's; undefined for events of no
 * board (`ready`, events this version does not know).
 */
export function boardOf(event: BotEvent): string | undefined {
  if (event.unknown) return undefined;
  switch (event.name) {
    case 'message.create':
    case 'message.edit':
    case 'message.delete':
      return event.data.message.board_id;
    case 'interaction.create':
      return event.data.interaction.board_id;
    default:
      return undefined;
  }
}

/**
 * The share of `maxPendingEvents` one board holds while the intake is contended: a tenth, so that
 * one board's flood leaves nine tenths of the bound to the others.
 * @param maxPendingEvents - the intake's bound
 */
export function boardShareOf(maxPendingEvents: number): number {
  return Math.max(1, Math.floor(maxPendingEvents / 10));
}
