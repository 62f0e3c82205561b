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

  it('forgets the oldest ids past its capacity, never the recent ones', () => {
    const marks = new MessageMarks();
    for (let i = 0; i < 10_001; i++) marks.record(mark(`m${i}`, 'b', i + 1));
    expect(marks.record(mark('m0', 'b', 1))).toBe(true);
    expect(marks.record(mark('m10000', 'b', 10_001))).toBe(false);
  });
});
