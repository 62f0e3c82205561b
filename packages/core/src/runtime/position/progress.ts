import { Fifo } from '../../kernel/fifo.js';
import type { Position } from './position-store.js';
import { SeqsInFlight } from './seqs-in-flight.js';

/** One event in flight, as {@link Progress} tracks it. */
export interface Ticket {
  /** The gateway event id; undefined for work that holds the mark without one (a backfilled message). */
  readonly eventId: string | undefined;
  /** The board and `seq` of a `message.create`, which move the board's mark. */
  readonly board: { id: string; seq: number } | undefined;
  done: boolean;
}

/**
 * Computes the resume point from the events as they are received and finished: the low-water mark
 * of finished events (every event up to it has finished, whatever finished after it), never the last
 * one received, so an event still in a handler when the process dies is delivered again.
 *
 * Gateway events arrive in id order, so their mark is the last finished event of an unbroken finished
 * prefix. Work without an id (backfilled messages) sits in the same line and holds the mark until it
 * finishes. A board's mark is one below its lowest `seq` still in flight, or its highest finished
 * `seq` when none is.
 */
export class Progress {
  // The line of unfinished work, in arrival order.
  private readonly line = new Fifo<Ticket>();
  private eventMark: string | undefined;
  private readonly boardMarks = new Map<string, number>();
  private readonly inFlight = new Map<string, SeqsInFlight>();
  private changes = 0;
  private halted = false;

  /** @param start - the stored position, if any */
  constructor(start: Position | undefined) {
    this.eventMark = start?.eventId;
    for (const [board, seq] of Object.entries(start?.boards ?? {})) this.boardMarks.set(board, seq);
  }

  /** Increases whenever a mark moves: the position needs saving when it differs from the last saved. */
  get version(): number {
    return this.changes;
  }

  /** Work received and not finished. */
  get pending(): number {
    return this.line.size;
  }

  /** The gateway event id to resume after. */
  get lastEventId(): string | undefined {
    return this.eventMark;
  }

  /** Whether a `message.create` of this board and `seq` was handled already (at or below the board's mark). */
  handled(boardId: string, seq: number): boolean {
    return seq <= (this.boardMarks.get(boardId) ?? 0);
  }

  /** The boards' marks (for a backfill: each board is read back to its mark). */
  get boards(): ReadonlyMap<string, number> {
    return this.boardMarks;
  }

  /**
   * Registers work in arrival order.
   * @param eventId - the gateway event id (increasing), or undefined
   * @param board - board and `seq` of a `message.create`
   */
  begin(eventId: string | undefined, board?: { id: string; seq: number }): Ticket {
    const ticket: Ticket = { eventId, board, done: false };
    this.line.push(ticket);
    if (board) {
      let seqs = this.inFlight.get(board.id);
      if (!seqs) {
        seqs = new SeqsInFlight();
        this.inFlight.set(board.id, seqs);
      }
      seqs.add(board.seq);
    }
    return ticket;
  }

  /** Marks work finished and moves the marks as far as they can go; nothing once {@link halt}ed. */
  finish(ticket: Ticket): void {
    if (ticket.done || this.halted) return;
    ticket.done = true;
    if (ticket.board) this.finishSeq(ticket.board.id, ticket.board.seq);
    while (this.line.peek()?.done) {
      const id = (this.line.shift() as Ticket).eventId;
      if (id !== undefined && id !== this.eventMark) {
        this.eventMark = id;
        this.changes++;
      }
    }
  }

  /**
   * Freezes the marks where they are, when a stop gives up waiting: a run abandoned then still ends
   * (its worker is freed), but it did not finish its work, so it must stay above the resume point
   * for the next process to handle its event again; events dropped unstarted stay above it too.
   */
  halt(): void {
    this.halted = true;
  }

  /** The position to store. @param now - epoch ms */
  snapshot(now: number): Position {
    return { eventId: this.eventMark, boards: Object.fromEntries(this.boardMarks), savedAt: now };
  }

  private finishSeq(boardId: string, seq: number): void {
    const seqs = this.inFlight.get(boardId) ?? new SeqsInFlight();
    seqs.remove(seq);
    const old = this.boardMarks.get(boardId) ?? 0;
    const highest = Math.max(seqs.highestFinished, seq);
    // Below the lowest seq in flight everything received has finished; with nothing in flight, all of it.
    let mark = highest;
    const lowest = seqs.lowest;
    if (lowest !== undefined) {
      seqs.highestFinished = highest;
      mark = Math.min(highest, lowest - 1);
    } else {
      this.inFlight.delete(boardId);
    }
    mark = Math.max(old, mark);
    if (mark !== old) {
      this.boardMarks.set(boardId, mark);
      this.changes++;
    }
  }
}
