import { isReplyBody, toWireBody } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

describe('reply bodies', () => {
  it('turns text into content and keeps content and embeds', () => {
    expect(toWireBody('hi')).toEqual({ content: 'hi' });
    expect(toWireBody({ embeds: [{ title: 'Dice' }] })).toEqual({ embeds: [{ title: 'Dice' }] });
  });

  it('knows which handler results are replies', () => {
    expect(isReplyBody('x')).toBe(true);
    expect(isReplyBody({ content: 'x' })).toBe(true);
    expect(isReplyBody({ embeds: [] })).toBe(true);
    expect(isReplyBody('')).toBe(false);
    expect(isReplyBody(undefined)).toBe(false);
    expect(isReplyBody({ id: 'a message' })).toBe(false);
    // What `return ctx.send('x')` yields: already sent, not to be sent again.
    expect(isReplyBody({ id: 'm', seq: 3, content: 'x', embeds: null })).toBe(false);
  });
});
