import { MessageMarks } from '@boardbot/core/internal';
import { message } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';

/** Message `seq` of `board`, known by `id`: all that the marks read. */
const mark = (id: string, board: string, seq: number) => message(seq, { id, board_id: board });

describe('MessageMarks', () => {
  it('refuses a message seen before', () => {
    const marks = new MessageMarks();
    expect(marks.record(mark('a', 'b1', 5))).toBe(true);
    expect(marks.record(mark('b', 'b1', 3))).toBe(true);
    expect(marks.record(mark('a', 'b1', 5))).toBe(false);
  });

  it('remembers at least the last 10,000 ids, and forgets those 20,000 back', () => {
    const marks = new MessageMarks();
    for (let i = 0; i < 20_000; i++) marks.record(mark(`m${i}`, 'b', i + 1));
    // 20,000 recorded: every one is still known.
    expect(marks.record(mark('m0', 'b', 1))).toBe(false);
    expect(marks.record(mark('m19999', 'b', 20_000))).toBe(false);
    marks.record(mark('m20000', 'b', 20_001));
    // One more: the oldest 10,000 are forgotten, the last 10,001 kept.
    expect(marks.record(mark('m9999', 'b', 10_000))).toBe(true);
    expect(marks.record(mark('m10000', 'b', 10_001))).toBe(false);
  });
});
