import { MessageMarks } from '@boardbot/core/internal';
import { message } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';

/** Message `seq` of `board`: all that the marks read. */
const mark = (board: string, seq: number) => message(seq, { board_id: board });

describe('MessageMarks', () => {
  it('refuses a message seen before, on its own board only', () => {
    const marks = new MessageMarks();
    expect(marks.record(mark('b1', 5))).toBe(true);
    expect(marks.record(mark('b1', 3))).toBe(true);
    expect(marks.record(mark('b2', 5))).toBe(true);
    expect(marks.record(mark('b1', 5))).toBe(false);
    expect(marks.record(mark('b1', 3))).toBe(false);
    expect(marks.record(mark('b2', 5))).toBe(false);
    expect(marks.record(mark('b1', 4))).toBe(true);
    expect(marks.record(mark('b1', 6))).toBe(true);
  });

  it('knows every seq of a run received in order, and the seqs that fill a hole join it', () => {
    const marks = new MessageMarks();
    for (let seq = 100; seq <= 50_000; seq++) expect(marks.record(mark('b', seq))).toBe(true);
    expect(marks.record(mark('b', 100))).toBe(false);
    expect(marks.record(mark('b', 50_000))).toBe(false);
    // Below the run, and read back from the newest down (a backfill of older messages).
    expect(marks.record(mark('b', 99))).toBe(true);
    expect(marks.record(mark('b', 99))).toBe(false);
    // A hole: 50,002 arrives before 50,001, which then closes it.
    expect(marks.record(mark('b', 50_002))).toBe(true);
    expect(marks.record(mark('b', 50_001))).toBe(true);
    expect(marks.record(mark('b', 50_002))).toBe(false);
    expect(marks.record(mark('b', 50_003))).toBe(true);
  });

  it('remembers at least the last 10,000 seqs out of order, and forgets those 20,000 back', () => {
    const marks = new MessageMarks();
    marks.record(mark('b', 1));
    // Every other seq: each one leaves a hole, so none joins the run.
    const seqs = Array.from({ length: 20_001 }, (_, i) => 3 + 2 * i);
    for (const seq of seqs.slice(0, 20_000)) marks.record(mark('b', seq));
    expect(marks.record(mark('b', seqs[0] as number))).toBe(false);
    expect(marks.record(mark('b', seqs[19_999] as number))).toBe(false);
    marks.record(mark('b', seqs[20_000] as number));
    // One more: the oldest 10,000 are forgotten (dispatched again at worst), the last 10,001 kept.
    expect(marks.record(mark('b', seqs[9_999] as number))).toBe(true);
    expect(marks.record(mark('b', seqs[10_000] as number))).toBe(false);
  });
});
