import { MessageMarks } from '@boardbot/core/internal';
import type { Message } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

const message = (id: string, board: string, seq: number): Message => ({
  id,
  board_id: board,
  author: null,
  kind: 'default',
  content: 'x',
  media: null,
  embeds: null,
  webhook_name: 'w',
  reply_to: null,
  seq,
  created_at: '2026-11-21T10:00:00.000Z',
  edited_at: null,
  deleted_at: null,
  interaction: null,
});

describe('MessageMarks', () => {
  it('refuses a message seen before', () => {
    const marks = new MessageMarks();
    expect(marks.record(message('a', 'b1', 5))).toBe(true);
    expect(marks.record(message('b', 'b1', 3))).toBe(true);
    expect(marks.record(message('a', 'b1', 5))).toBe(false);
  });

  it('forgets the oldest ids past its capacity, never the recent ones', () => {
    const marks = new MessageMarks();
    for (let i = 0; i < 10_001; i++) marks.record(message(`m${i}`, 'b', i + 1));
    expect(marks.record(message('m0', 'b', 1))).toBe(true);
    expect(marks.record(message('m10000', 'b', 10_001))).toBe(false);
  });
});
