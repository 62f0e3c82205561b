import { Fifo } from '../../kernel/fifo.js';

/**
 * The `seq`s of one board's messages in flight, lowest first, for {@link Progress}. They are mostly
 * received in increasing order and, under the default ordering (a board's events one at a time),
 * finished in that order too: both are constant time then, however many wait. A backfill inserts
 * below what is in flight, and other orderings finish out of order; both cost more, and stay correct.
 */
export class SeqsInFlight {
  // Sorted; a seq finished before the head reaches it waits in `finishedEarly`, so the head always
  // names the lowest seq still in flight.
  private readonly seqs = new Fifo<number>();
  private readonly finishedEarly = new Set<number>();
  /** The highest seq finished so far, while others are still in flight. */
  highestFinished = 0;

  /** The lowest seq in flight, or undefined when none is. */
  get lowest(): number | undefined {
    return this.seqs.peek();
  }

  /** Adds a seq that is now in flight. */
  add(seq: number): void {
    this.seqs.insert(seq, (queued) => queued > seq);
  }

  /** Removes a seq whose work finished. */
  remove(seq: number): void {
    if (this.seqs.peek() !== seq) {
      this.finishedEarly.add(seq);
      return;
    }
    this.seqs.shift();
    while (this.seqs.size > 0 && this.finishedEarly.delete(this.seqs.peek() as number)) this.seqs.shift();
  }
}
