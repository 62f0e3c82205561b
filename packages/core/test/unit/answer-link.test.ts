import { describe, expect, it } from 'vitest';
import { linkKey, superseded } from '../../src/editable/answer-link.js';

const live = (id: string) => ({ id, origin: 'live' as const });

describe('the link of an editable answer', () => {
  it('is keyed by board, message and owner, apart from a stream record', () => {
    expect(linkKey('b1', 'm1', 'text')).toBe('msg:b1:m1:text');
    expect(linkKey('b1', 'm1', 'Echo.echo')).toBe('msg:b1:m1:Echo.echo');
  });

  it('is superseded for an earlier event of the message, not for the same or a later one', () => {
    expect(superseded(undefined, live('7'))).toBe(false);
    expect(superseded('7', live('7'))).toBe(false);
    expect(superseded('7', live('8'))).toBe(false);
    // Decimal ids compare as numbers, not as text.
    expect(superseded('10', live('9'))).toBe(true);
    expect(superseded('9', live('10'))).toBe(false);
    expect(superseded('8', live('7'))).toBe(true);
  });

  it('after a backfill: its message read back is run only when no run linked it; live events come after it', () => {
    expect(superseded('42', { id: 'backfill:m1', origin: 'backfill' })).toBe(true);
    expect(superseded('backfill:m1', { id: 'backfill:m1', origin: 'backfill' })).toBe(false);
    expect(superseded('backfill:m1', live('43'))).toBe(false);
  });
});
