/**
 * The `seq`s of one board's messages in flight, lowest first, for {@link Progress}. They are mostly
 * received in increasing order and, under the default ordering (a board's events one at a time),
 * finished in that order too: both are constant time then, however many wait. A backfill inserts
 * below what is in flight, and other orderings finish out of order; both cost more, and stay correct.
 */
export class SeqsInFlight {
  // Sorted, as an array and a head index; a seq finished before the head reaches it waits in
  // `finishedEarly`, so the head always names the lowest seq still in flight.
  private seqs: number[] = [];
  private head = 0;
  private readonly finishedEarly = new Set<number>();
  /** The highest seq finished so far, while others are still in flight. */
  highestFinished = 0;

  /** The lowest seq in flight, or undefined when none is. */
  get lowest(): number | undefined {
    return this.head < this.seqs.length ? this.seqs[this.head] : undefined;
  }

  /** Adds a seq that is now in flight. */
  add(seq: number): void {
    const last = this.seqs[this.seqs.length - 1];
    if (this.head === this.seqs.length || (last as number) < seq) {
      this.seqs.push(seq);
      return;
    }
    let i = this.seqs.length;
    while (i > this.head && (this.seqs[i - 1] as number) > seq) i--;
    this.seqs.splice(i, 0, seq);
  }

  /** Removes a seq whose work finished. */
  remove(seq: number): void {
    if (this.seqs[this.head] !== seq) {
      this.finishedEarly.add(seq);
      return;
    }
    this.head++;
    while (this.head < this.seqs.length && this.finishedEarly.delete(this.seqs[this.head] as number)) this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.seqs.length) {
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
  }
}
