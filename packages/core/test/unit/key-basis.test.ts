import type { BotEvent } from '@boardbot/core';
import { keyBasis, writeKey } from '@boardbot/core/internal';
import type { Message } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

const message: Message = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  board_id: 'b1',
  author: 'u1',
  kind: 'default',
  content: 'hi',
  media: null,
  embeds: null,
  webhook_name: null,
  reply_to: null,
  seq: 7,
  created_at: '2026-11-21T10:00:00.000Z',
  edited_at: null,
  deleted_at: null,
  interaction: null,
};
const created = (id: string): BotEvent => ({ name: 'message.create', id, data: { type: 'message.create', message } });
const edited = (id: string): BotEvent => ({ name: 'message.edit', id, data: { type: 'message.edit', message } });

describe('keyBasis', () => {
  it('gives a message the same keys live and read back by a backfill', () => {
    // Regression: the backfill's event id `backfill:<message id>` gave its writes other keys than the
    // live run's, so a message answered before a crash was answered again after a gap.
    const live = keyBasis(created('41'));
    expect(keyBasis(created(`backfill:${message.id}`))).toBe(live);
    expect(writeKey({ keyBasis: live, handler: 'Echo.echo' }, 0)).toMatch(new RegExp(`^bb1:m\\.${message.id}:`));
  });

  it('keeps the gateway event id for everything else: each edit of a message is its own event', () => {
    expect(keyBasis(edited('42'))).toBe('42');
    expect(keyBasis(edited('43'))).not.toBe(keyBasis(edited('42')));
    expect(keyBasis({ name: 'board.renamed', id: '44', unknown: true, data: {} })).toBe('44');
  });
});
