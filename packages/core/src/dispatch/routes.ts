import type { Message } from '@boardbot/protocol';
import type { HandlerContext } from '../context/types.js';
import type { Container } from '../di/container.js';
import type { CommandRoute, HandlerDescription } from '../metadata/explorer.js';
import type { CooldownMetadata, MessageEventName, MessageListenerMetadata, MessageMatcher } from '../metadata/types.js';
import { type GuardFn, type GuardResult, isGuardClass } from './guard.js';

/** One method of one handler instance, with what runs before it. */
export interface Target {
  handler: HandlerDescription;
  /** The handler instance, built by the container. */
  instance: Record<string, unknown>;
  method: string;
  /** `Class.method`, for logs. */
  label: string;
  guards: { name: string; check: GuardFn }[];
  cooldown: CooldownMetadata | undefined;
}

/** The dispatch tables of a bot: commands by name, listeners by event. */
export interface Routes {
  /** Keyed by `name` or `name subcommand`. */
  commands: Map<string, Target & { route: CommandRoute }>;
  messages: Record<MessageEventName, (Target & { listener: MessageListenerMetadata })[]>;
  events: Map<string, Target[]>;
}

/** The key of a command route. */
export const routeKey = (command: string, subcommand: string | null) =>
  subcommand === null ? command : `${command} ${subcommand}`;

/**
 * Builds the dispatch tables, instantiating every handler and guard class through the container
 * (so a missing provider fails `createBot`, not the first event).
 *
 * @param handlers - described handler classes
 * @param container - the bot's container
 */
export function buildRoutes(handlers: readonly HandlerDescription[], container: Container): Routes {
  const routes: Routes = {
    commands: new Map(),
    messages: { 'message.create': [], 'message.edit': [], 'message.delete': [] },
    events: new Map(),
  };
  for (const handler of handlers) {
    const instance = container.get(handler.cls) as Record<string, unknown>;
    const target = (method: string): Target => ({
      handler,
      instance,
      method,
      label: `${handler.cls.name}.${method}`,
      guards: handler.guards(method).map((ref) => {
        if (!isGuardClass(ref)) return { name: ref.name || 'guard', check: ref };
        const guard = container.get(ref);
        return {
          name: ref.name,
          check: (ctx: HandlerContext): GuardResult | Promise<GuardResult> => guard.canActivate(ctx),
        };
      }),
      cooldown: handler.cooldown(method),
    });
    for (const route of handler.command?.routes ?? []) {
      routes.commands.set(routeKey(route.command, route.subcommand), { ...target(route.method), route });
    }
    for (const listener of handler.messageListeners) {
      routes.messages[listener.event].push({ ...target(listener.method), listener });
    }
    for (const l of handler.eventListeners) {
      const list = routes.events.get(l.event) ?? [];
      list.push(target(l.method));
      routes.events.set(l.event, list);
    }
  }
  return routes;
}

/**
 * Tests a message against a listener's matcher: `false` when it does not match, else the regular
 * expression match (or null for prefixes, predicates and listeners without a matcher).
 */
export function matchMessage(matcher: MessageMatcher | undefined, message: Message): RegExpExecArray | null | false {
  if (matcher === undefined) return null;
  if (typeof matcher === 'function') return matcher(message) ? null : false;
  if (message.content === null) return false;
  if (typeof matcher === 'string') return message.content.startsWith(matcher) ? null : false;
  // A global or sticky expression remembers lastIndex between calls; every message starts afresh.
  matcher.lastIndex = 0;
  return matcher.exec(message.content) ?? false;
}
