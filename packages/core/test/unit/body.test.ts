import { isReplyBody, toWireBody } from '@boardbot/core/internal';
import { LIMITS } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

describe('reply bodies', () => {
  it('turns text into content and keeps content and embeds', () => {
    expect(toWireBody('hi')).toEqual({ content: 'hi' });
    expect(toWireBody({ embeds: [{ title: 'Dice' }] })).toEqual({ embeds: [{ title: 'Dice' }] });
  });

  it('refuses what the platform would refuse, before any request', () => {
    expect(() => toWireBody('')).toThrow(expect.objectContaining({ code: 'BOARDBOT_INVALID_REPLY' }));
    expect(() => toWireBody('x'.repeat(LIMITS.contentLength + 1))).toThrow(/\/content/);
    expect(() => toWireBody({ embeds: [{ color: 'red' }] })).toThrow(/\/embeds\/0\/color/);
    expect(() => toWireBody({ embeds: [{}] })).toThrow(/non-empty embed/);
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
