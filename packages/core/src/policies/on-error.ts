import { InvalidHandlerError } from '../errors.js';
import type { AnyContext } from '../kernel/context.js';
import { ERROR_HOOK_KEY } from './metadata.js';

/** An error hook: the error (a throw, a rejection or a `HandlerTimeoutError`) and the context
 * (`ctx.kind` tells commands, messages and events apart). */
export type ErrorHook = (error: unknown, ctx: AnyContext) => unknown;

/**
 * Marks the method that hears about errors of this class's commands and listeners, before the
 * runtime tells the person that something went wrong. If it replies, the default reply is skipped.
 */
export function OnError() {
  return <T extends ErrorHook>(target: object, method: string | symbol, _d: TypedPropertyDescriptor<T>): void => {
    if (typeof method !== 'string') throw new InvalidHandlerError('@OnError needs a string method name');
    Reflect.defineMetadata(ERROR_HOOK_KEY, method, target.constructor);
  };
}
