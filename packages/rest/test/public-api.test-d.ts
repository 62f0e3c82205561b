import type { Command, Message } from '@boardbot/protocol';
import { type ApiError, type BoardbotRestError, RestClient, type RestErrorCode } from '@boardbot/rest';
import { describe, expectTypeOf, it } from 'vitest';

describe('public API types', () => {
  const rest = new RestClient({ token: 't' });

  it('types each event payload by its name', () => {
    rest.on('retry', (e) => {
      expectTypeOf(e.reason).toEqualTypeOf<'network' | 'timeout' | 'status' | 'invalid_response' | 'rate_limited'>();
      expectTypeOf(e.delayMs).toBeNumber();
    });
    rest.on('rateLimited', (e) => expectTypeOf(e.bucket).toEqualTypeOf<'app' | 'interaction'>());
    rest.on('response', (e) => expectTypeOf(e.status).toBeNumber());
    // @ts-expect-error: no such event
    rest.on('rateLimit', () => {});
  });

  it('returns protocol records', () => {
    expectTypeOf(rest.sendMessage).returns.resolves.toEqualTypeOf<Message>();
    expectTypeOf(rest.replaceCommands).returns.resolves.toEqualTypeOf<Command[]>();
    expectTypeOf(rest.deleteMessage).returns.resolves.toBeVoid();
    expectTypeOf(rest.iterateMessages).returns.toEqualTypeOf<AsyncIterableIterator<Message>>();
  });

  it('rejects bodies the protocol does not allow', () => {
    // @ts-expect-error: replyTo, not reply_to
    void rest.sendMessage('b', { content: 'x', reply_to: 'm' });
  });

  it('exposes stable codes on every error', () => {
    expectTypeOf<BoardbotRestError['code']>().toEqualTypeOf<RestErrorCode>();
    expectTypeOf<ApiError['apiCode']>().toBeString();
  });
});
