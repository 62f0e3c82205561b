import { describe, expect, it } from 'vitest';
import { linkKey, superseded } from '../../src/editable/answer-link.js';

describe('the link of an editable answer', () => {
  it('is keyed by board, message and owner, apart from a stream record', () => {
    expect(linkKey('b1', 'm1', 'text')).toBe('msg:b1:m1:text');
    expect(linkKey('b1', 'm1', 'Echo.echo')).toBe('msg:b1:m1:Echo.echo');
  });

  it('is superseded for an earlier event of the message, not for the same or a later one', () => {
    expect(superseded(undefined, '7')).toBe(false);
    expect(superseded('7', '7')).toBe(false);
    expect(superseded('7', '8')).toBe(false);
    // Decimal ids compare as numbers, not as text.
    expect(superseded('10', '9')).toBe(true);
    expect(superseded('9', '10')).toBe(false);
    expect(superseded('8', '7')).toBe(true);
  });

  it('after a backfill: its message read back is run only when no run linked it; live events come after it', () => {
    expect(superseded('42', 'backfill:m1')).toBe(true);
    expect(superseded('backfill:m1', 'backfill:m1')).toBe(false);
    expect(superseded('backfill:m1', '43')).toBe(false);
  });
});
