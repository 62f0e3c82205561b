import { orderingKey } from '@boardbot/core';
import { describe, expect, it } from 'vitest';

const message = (board: string, author: string | null, webhook: string | null = null) => ({
  name: 'message.create',
  id: '1',
  data: { type: 'message.create', message: { board_id: board, author, webhook_name: webhook } },
});
const interaction = (board: string, user: string) => ({
  name: 'interaction.create',
  id: '2',
  data: { type: 'interaction.create', interaction: { board_id: board, user: { id: user } } },
});

describe('orderingKey', () => {
  it('orders by board by default, by person on a board with user, and not at all with none', () => {
    expect(orderingKey(message('b1', 'u1'), 'board')).toBe('b1');
    expect(orderingKey(interaction('b1', 'u2'), 'board')).toBe('b1');
    expect(orderingKey(message('b1', 'u1'), 'user')).toBe('b1:u1');
    expect(orderingKey(interaction('b1', 'u1'), 'user')).toBe('b1:u1');
    expect(orderingKey(message('b1', null, 'ci'), 'user')).toBe('b1:webhook:ci');
    expect(orderingKey(message('b1', 'u1'), 'none')).toBeUndefined();
  });

  it('gives events of no board (ready, unknown events) no key', () => {
    expect(orderingKey({ name: 'ready', id: '3', data: { type: 'ready', board_ids: [] } }, 'board')).toBeUndefined();
    expect(orderingKey({ name: 'future.thing', id: '4', data: null }, 'board')).toBeUndefined();
  });
});
