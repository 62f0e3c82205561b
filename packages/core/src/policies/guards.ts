import type { HandlerContext } from '../kernel/context.js';
import type { Class } from '../kernel/metadata.js';

/**
 * What a guard decides: `true` (or nothing) lets the handler run; `false` denies with the default
 * reply; a string denies and is the reply the person gets. `void` is part of it so that a guard
 * with no `return` (which only logs, say) is one.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a guard that returns nothing lets the handler run, and TypeScript types it void.
export type GuardResult = boolean | string | undefined | void;

/** A guard as a function. */
export type GuardFn = (ctx: HandlerContext) => GuardResult | Promise<GuardResult>;

/** A guard as a class; it is built once by the bot's container, so it can inject providers. */
export interface CanActivate {
  canActivate(ctx: HandlerContext): GuardResult | Promise<GuardResult>;
}

/** A guard given to `@UseGuards`: a function, or a class implementing {@link CanActivate}. */
export type GuardRef = GuardFn | Class<CanActivate>;

/** Whether `ref` is a guard class rather than a guard function. */
export function isGuardClass(ref: GuardRef): ref is Class<CanActivate> {
  const proto: unknown = (ref as { prototype?: unknown }).prototype;
  return typeof proto === 'object' && proto !== null && typeof (proto as CanActivate).canActivate === 'function';
}
