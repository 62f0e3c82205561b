import type { BotEvent } from '@boardbot/core';
import { orderingKey } from '@boardbot/core/internal';
import type { App, Interaction, Message, UserProfile } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

const AT = '2026-11-21T10:00:00.000Z';
const user = (id: string): UserProfile => ({
  id,
  username: id,
  display_name: id,
  avatar_url: null,
  is_bot: false,
  created_at: AT,
});
const message = (board: string, author: string | null, webhook: string | null = null): BotEvent => {
  const m: Message = {
    id: 'm1',
    board_id: board,
    author,
    kind: 'default',
    content: 'hi',
    media: null,
    embeds: null,
    webhook_name: webhook,
    reply_to: null,
    seq: 1,
    created_at: AT,
    edited_at: null,
    deleted_at: null,
    interaction: null,
  };
  return { name: 'message.create', id: '1', data: { type: 'message.create', message: m } };
};
const interaction = (board: string, userId: string): BotEvent => {
  const i: Interaction = {
    id: 'i1',
    type: 'command',
    token: 't'.repeat(43),
    app_id: 'a1',
    board_id: board,
    user: user(userId),
    command: { name: 'roll', subcommand: null, options: {} },
    created_at: AT,
    expires_at: AT,
  };
  return { name: 'interaction.create', id: '2', data: { type: 'interaction.create', interaction: i } };
};
const app: App = { id: 'a1', name: 'bot', description: null, bot_user_id: 'u0', created_at: AT };

describe('orderingKey', () => {
  it('orders by board by default, by person on a board with user, and only per message with none', () => {
    expect(orderingKey(message('b1', 'u1'), 'board')).toBe('b1');
    expect(orderingKey(interaction('b1', 'u2'), 'board')).toBe('b1');
    expect(orderingKey(message('b1', 'u1'), 'user')).toBe('b1:u1');
    expect(orderingKey(interaction('b1', 'u1'), 'user')).toBe('b1:u1');
    expect(orderingKey(message('b1', null, 'ci'), 'user')).toBe('b1:webhook:ci');
    // An editable answer's re-run must find what its message's earlier run linked: one message's
    // creation, edits and deletion keep their order whatever orderBy says.
    expect(orderingKey(message('b1', 'u1'), 'none')).toBe('b1:message:m1');
    const edited = { ...message('b1', 'u1'), name: 'message.edit' } as BotEvent;
    expect(orderingKey(edited, 'none')).toBe('b1:message:m1');
    expect(orderingKey(interaction('b1', 'u1'), 'none')).toBeUndefined();
  });

  it('gives events of no board (ready, unknown events) no key', () => {
    const ready: BotEvent = { name: 'ready', id: '3', data: { type: 'ready', app, board_ids: [], resumed: false } };
    expect(orderingKey(ready, 'board')).toBeUndefined();
    expect(orderingKey({ name: 'future.thing', id: '4', data: null, unknown: true }, 'board')).toBeUndefined();
  });
});
