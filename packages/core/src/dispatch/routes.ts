import { InvalidHandlerError } from '../errors.js';
import type { Container } from '../kernel/container.js';
import type { HandlerContext } from '../kernel/context.js';
import type { Class } from '../kernel/metadata.js';
import { type GuardRef, type GuardResult, isGuardClass } from '../policies/guards.js';
import type { KindDefinition, KindHandler, KindMethod } from '../policies/kind.js';
import type { HandlerTarget } from '../policies/stages.js';
import type { HandlerDescription } from './explorer.js';

/** The handler methods of a bot, by kind: each bound to its instance, with its policies. */
export type Routes = ReadonlyMap<KindDefinition, readonly KindHandler[]>;

/**
 * Binds a method of a handler instance: the one place a handler is called, typed, with whatever
 * arguments its kind gives.
 */
function bind(instance: object, cls: Class, method: string): (...args: readonly unknown[]) => unknown {
  const fn: unknown = Reflect.get(instance, method);
  if (typeof fn !== 'function')
    throw new InvalidHandlerError(`${cls.name}.${method} is decorated but is not a method.`);
  return (...args) => Reflect.apply(fn, instance, args);
}

/**
 * Builds the handler methods of every kind, instantiating every handler and guard class through the
 * container (so a missing provider fails `createBot`, not the first event).
 *
 * @param handlers - described handler classes
 * @param container - the bot's container
 * @param globalGuards - guards run before every handler's own (those of plugins)
 */
export function buildRoutes(
  handlers: readonly HandlerDescription[],
  container: Container,
  globalGuards: readonly GuardRef[] = [],
): Routes {
  const routes = new Map<KindDefinition, KindHandler[]>();
  for (const handler of handlers) {
    const instance = container.get(handler.cls as Class<object>);
    const hook = handler.errorHook;
    const errorHook = hook
      ? { label: `${handler.cls.name}.${hook}`, call: bind(instance, handler.cls, hook) }
      : undefined;
    const target = (method: string): HandlerTarget => ({
      label: `${handler.cls.name}.${method}`,
      call: bind(instance, handler.cls, method),
      guards: [...globalGuards, ...handler.guards(method)].map((ref) => {
        if (!isGuardClass(ref)) return { name: ref.name || 'guard', check: ref };
        const guard = container.get(ref);
        return {
          name: ref.name,
          check: (ctx: HandlerContext): GuardResult | Promise<GuardResult> => guard.canActivate(ctx),
        };
      }),
      cooldown: handler.cooldown(method),
      errorHook,
    });
    for (const [kind, methods] of handler.kinds) {
      const list = routes.get(kind) ?? [];
      for (const meta of methods) list.push({ target: target(meta.method), meta });
      routes.set(kind, list);
    }
  }
  return routes;
}

/**
 * The handler methods of one kind.
 * @param routes - the bot's routes
 * @param kind - the kind
 */
export function handlersOf<M extends KindMethod>(routes: Routes, kind: KindDefinition<M>): readonly KindHandler<M>[] {
  return (routes.get(kind as KindDefinition) ?? []) as readonly KindHandler<M>[];
}
