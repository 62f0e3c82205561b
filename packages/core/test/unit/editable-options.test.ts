import { type MessageContext, OnMessage } from '@boardbot/core';
import { describe, expect, it } from 'vitest';

describe('@OnMessage({ editable })', () => {
  it('refuses editable with a burst policy, and a value that is neither a boolean nor an object', () => {
    expect(() => {
      class Both {
        @OnMessage('!x', { editable: true, burst: 'latest' })
        x(_ctx: MessageContext) {}
      }
      return Both;
    }).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_INVALID_HANDLER',
        message: expect.stringContaining('Both.x: editable cannot be combined with burst; choose one'),
      }),
    );
    expect(() => {
      class Odd {
        @OnMessage('!x', { editable: 'yes' as never })
        x(_ctx: MessageContext) {}
      }
      return Odd;
    }).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_INVALID_HANDLER',
        message: expect.stringContaining('Odd.x: editable must be true, false or { deleteWithMessage: boolean }'),
      }),
    );
  });
});
