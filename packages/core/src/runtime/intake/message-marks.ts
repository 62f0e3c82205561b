import type { Message } from '@boardbot/protocol';

/** How many dispatched seqs out of order a board remembers at least (at most twice as many). */
const REMEMBERED = 10_000;

/** One board's dispatched seqs: a run with no hole, and those received out of order. */
interface BoardMarks {
  /** Every seq from `from` to `upTo` was dispatched. */
  from: number;
  upTo: number;
  // Seqs outside the run, in two generations: when the current one is full it becomes the one
  // before and the oldest is dropped whole. Forgetting one can only dispatch it twice (then its
  // idempotency keys hold), never lose it.
  current: Set<number>;
  before: Set<number>;
}

/**
 * The messages dispatched recently, so that a message delivered live and read back by a backfill is
 * handled once. A board's `seq` is strictly increasing and never reused (CONTRACT), and messages
 * mostly arrive in its order: a board keeps the run of seqs it dispatched with no hole as two
 * numbers and a set of the others. A set of 10,000 message ids (strings, each kept long enough to be
 * moved to the old heap) was a tenth of an event's dispatch CPU on Node 26.
 */
export class MessageMarks {
  private readonly boards = new Map<string, BoardMarks>();

  /**
   * Records a dispatched `message.create`.
   * @returns false when this message was already dispatched
   */
  record(message: Pick<Message, 'board_id' | 'seq'>): boolean {
    const { board_id: boardId, seq } = message;
    const board = this.boards.get(boardId);
    if (board === undefined) {
      this.boards.set(boardId, { from: seq, upTo: seq, current: new Set(), before: new Set() });
      return true;
    }
    if (seq === board.upTo + 1) {
      board.upTo = seq;
      // Seqs received early now join the run (they stay in their set, harmless, until dropped).
      if (board.current.size + board.before.size > 0) {
        while (board.current.has(board.upTo + 1) || board.before.has(board.upTo + 1)) board.upTo++;
      }
      return true;
    }
    if ((seq >= board.from && seq <= board.upTo) || board.current.has(seq) || board.before.has(seq)) return false;
    if (seq === board.from - 1) {
      board.from = seq;
      return true;
    }
    if (board.current.size === REMEMBERED) {
      board.before = board.current;
      board.current = new Set();
    }
    board.current.add(seq);
    return true;
  }
}
