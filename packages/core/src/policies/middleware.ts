import { MiddlewareNextTwiceError } from '../errors.js';
import type { HandlerContext } from '../kernel/context.js';

/**
 * Runs around every command and message handler, after guards and cooldowns: call `next()` to go
 * on, or return without calling it to stop here.
 *
 * @example
 * bot.use(async (ctx, next) => {
 *   const t = performance.now();
 *   await next();
 *   ctx.log.info({ ms: performance.now() - t }, 'handled');
 * });
 */
export type Middleware = (ctx: HandlerContext, next: () => Promise<void>) => unknown;

/** Runs `middleware` in order around `handler`; calling `next()` twice is an error. */
export async function runMiddleware(
  middleware: readonly Middleware[],
  ctx: HandlerContext,
  handler: () => Promise<void>,
): Promise<void> {
  let index = -1;
  const step = async (i: number): Promise<void> => {
    if (i <= index) throw new MiddlewareNextTwiceError();
    index = i;
    const mw = middleware[i];
    if (mw === undefined) return handler();
    await mw(ctx, () => step(i + 1));
  };
  await step(0);
}
