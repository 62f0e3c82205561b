import type { CommandTable, CommandTarget } from '../commands/handle-interaction.js';
import { routeKey } from '../commands/route-key.js';
import type { Container } from '../kernel/container.js';
import type { HandlerContext } from '../kernel/context.js';
import type { EventTable } from '../listeners/handle-event.js';
import type { MessageTable, MessageTarget } from '../listeners/handle-message.js';
import { type GuardRef, type GuardResult, isGuardClass } from '../policies/guards.js';
import type { PolicedMethod } from '../policies/pipeline.js';
import type { ScheduledMethod } from '../schedules/scheduler.js';
import type { HandlerDescription } from './explorer.js';

/** The dispatch tables of a bot: commands by name, listeners by event, and the scheduled methods. */
export interface Routes {
  commands: CommandTable;
  messages: MessageTable;
  events: EventTable;
  schedules: readonly ScheduledMethod[];
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
  const events = new Map<string, PolicedMethod[]>();
  const schedules: ScheduledMethod[] = [];
  for (const handler of handlers) {
    const instance = container.get(handler.cls) as Record<string, unknown>;
    const target = (method: string): PolicedMethod => ({
      instance,
      method,
      className: handler.cls.name,
      label: `${handler.cls.name}.${method}`,
      guards: [...globalGuards, ...handler.guards(method)].map((ref) => {
        if (!isGuardClass(ref)) return { name: ref.name || 'guard', check: ref };
        const guard = container.get(ref);
        return {
          name: ref.name,
          check: (ctx: HandlerContext): GuardResult | Promise<GuardResult> => guard.canActivate(ctx),
        };
      }),
      cooldown: handler.cooldown(method),
      errorHook: handler.errorHook,
    });
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
  return { commands, messages, events, schedules };
}
