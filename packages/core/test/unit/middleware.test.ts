import type { HandlerContext } from '@boardbot/core';
import { type Middleware, runMiddleware } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

// Middleware only passes the context along; these tests never read it.
const ctx = {} as HandlerContext;

describe('runMiddleware', () => {
  it('runs middleware in order around the handler', async () => {
    const log: string[] = [];
    const mw =
      (name: string): Middleware =>
      async (_c, next) => {
        log.push(`${name}>`);
        await next();
        log.push(`<${name}`);
      };
    await runMiddleware([mw('a'), mw('b')], ctx, async () => {
      log.push('handler');
    });
    expect(log).toEqual(['a>', 'b>', 'handler', '<b', '<a']);
  });

  it('a middleware that does not call next() stops the handler', async () => {
    let ran = false;
    await runMiddleware([() => {}], ctx, async () => {
      ran = true;
    });
    expect(ran).toBe(false);
  });

  it('calling next() twice is an error', async () => {
    const twice: Middleware = async (_c, next) => {
      await next();
      await next();
    };
    await expect(runMiddleware([twice], ctx, async () => {})).rejects.toMatchObject({
      code: 'BOARDBOT_MIDDLEWARE_NEXT_TWICE',
      message: expect.stringMatching(/more than once/),
    });
  });
});
