import type { CommandTarget } from '../commands/command-steps.js';
import type { CommandTable } from '../commands/handle-interaction.js';
import { routeKey } from '../commands/route-key.js';
import { InvalidHandlerError } from '../errors.js';
import type { Container } from '../kernel/container.js';
import type { HandlerContext } from '../kernel/context.js';
import type { Class } from '../kernel/metadata.js';
import type { EventTable } from '../listeners/handle-event.js';
import type { MessageTable } from '../listeners/handle-message.js';
import type { MessageTarget } from '../listeners/target.js';
import { type GuardRef, type GuardResult, isGuardClass } from '../policies/guards.js';
import type { HandlerTarget } from '../policies/steps.js';
import type { ScheduledMethod } from '../schedules/scheduler.js';
import type { HandlerDescription } from './explorer.js';

/** A handler class, built, with the targets of its methods: where a new kind of handler finds its own. */
export interface RoutedClass {
  cls: Class;
  /** The target of one method of the class: bound to the instance, with its policies. */
  target(method: string): HandlerTarget;
}

/** The dispatch tables of a bot: commands by name, listeners by event, and the scheduled methods. */
export interface Routes {
  commands: CommandTable;
  messages: MessageTable;
  events: EventTable;
  schedules: readonly ScheduledMethod[];
  /** Every handler class, for the kinds of handler that read their own decorators. */
  classes: readonly RoutedClass[];
}

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
 * Builds the dispatch tables, instantiating every handler and guard class through the container
 * (so a missing provider fails `createBot`, not the first event).
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
  const commands = new Map<string, CommandTarget>();
  const messages: Record<keyof MessageTable, MessageTarget[]> = {
    'message.create': [],
    'message.edit': [],
    'message.delete': [],
  };
  const events = new Map<string, HandlerTarget[]>();
  const schedules: ScheduledMethod[] = [];
  const classes: RoutedClass[] = [];
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
    classes.push({ cls: handler.cls, target });
    for (const route of handler.command?.routes ?? []) {
      commands.set(routeKey(route.command, route.subcommand), { ...target(route.method), route });
    }
    for (const listener of handler.messageListeners) {
      messages[listener.event].push({ ...target(listener.method), listener });
    }
    for (const l of handler.eventListeners) {
      const list = events.get(l.event) ?? [];
      list.push(target(l.method));
      events.set(l.event, list);
    }
    for (const schedule of handler.schedules) {
      schedules.push({ schedule, target: { ...target(schedule.method), schedule: schedule.name } });
    }
  }
  return { commands, messages, events, schedules, classes };
}
