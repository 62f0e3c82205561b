import type { CommandDefinition, CommandOption } from '@boardbot/protocol';
import type { GuardRef } from '../dispatch/guard.js';
import { InvalidHandlerError } from '../errors.js';
import { type DerivedOption, deriveOptions } from '../options/derive-options.js';
import {
  COMMAND_KEY,
  COOLDOWN_KEY,
  ERROR_HOOK_KEY,
  EVENT_LISTENERS_KEY,
  GUARDS_KEY,
  MESSAGE_LISTENERS_KEY,
  SUBCOMMANDS_KEY,
} from './keys.js';
import { readMetadata, readMetadataList } from './store.js';
import type {
  Class,
  CommandMetadata,
  CooldownMetadata,
  EventListenerMetadata,
  MessageListenerMetadata,
  SubcommandMetadata,
} from './types.js';

/** The method that handles one command or subcommand, with its options class and derived options. */
export interface CommandRoute {
  command: string;
  subcommand: string | null;
  method: string;
  optionsClass?: Class;
  options: DerivedOption[];
}

/** A `@Command` class: what it registers, how invocations reach its methods, where options come from. */
export interface CommandDescription {
  definition: CommandDefinition;
  routes: CommandRoute[];
  /** For each entry of `definition.options`: its `Class.property` or `Class.method`. */
  optionSources: string[];
  /** For subcommands: the `Class.property` of each of their options. */
  subOptionSources: string[][];
}

/** Everything the runtime needs to know about one handler class. */
export interface HandlerDescription {
  cls: Class;
  command?: CommandDescription;
  messageListeners: readonly MessageListenerMetadata[];
  eventListeners: readonly EventListenerMetadata[];
  /** Method decorated with `@OnError`. */
  errorHook?: string;
  /** Guards of a method: the class's first, then the method's. */
  guards(method: string): readonly GuardRef[];
  /** Cooldown of a method: its own, else the class's. */
  cooldown(method: string): CooldownMetadata | undefined;
}

/**
 * Reads the decorators of a handler class into a {@link HandlerDescription}, deriving its command
 * and option schema. Throws when the class cannot work (e.g. a command with neither `run` nor
 * subcommands).
 *
 * @param cls - a class given in `createBot({ handlers })`
 */
export function exploreHandler(cls: Class): HandlerDescription {
  const messageListeners = readMetadataList<MessageListenerMetadata>(MESSAGE_LISTENERS_KEY, cls);
  const eventListeners = readMetadataList<EventListenerMetadata>(EVENT_LISTENERS_KEY, cls);
  const meta = readMetadata<CommandMetadata>(COMMAND_KEY, cls);
  const subs = readMetadataList<SubcommandMetadata>(SUBCOMMANDS_KEY, cls);
  if (!meta && subs.length > 0) throw new InvalidHandlerError(`${cls.name} has @Subcommand methods but no @Command`);
  if (!meta && messageListeners.length === 0 && eventListeners.length === 0) {
    throw new InvalidHandlerError(
      `${cls.name} is listed in handlers but has no @Command, @OnMessage, @OnMessageEdit, @OnMessageDelete, ` +
        '@OnEvent or @OnReady: add one, or move it to providers.',
    );
  }
  const errorHook = readMetadata<string>(ERROR_HOOK_KEY, cls);
  return {
    cls,
    ...(meta ? { command: describeCommand(cls, meta, subs) } : {}),
    messageListeners,
    eventListeners,
    ...(errorHook ? { errorHook } : {}),
    guards: (method) => [
      ...readMetadataList<GuardRef>(GUARDS_KEY, cls),
      ...readMetadataList<GuardRef>(GUARDS_KEY, cls, method),
    ],
    cooldown: (method) =>
      readMetadata<CooldownMetadata>(COOLDOWN_KEY, cls, method) ?? readMetadata<CooldownMetadata>(COOLDOWN_KEY, cls),
  };
}

function describeCommand(cls: Class, meta: CommandMetadata, subs: readonly SubcommandMetadata[]): CommandDescription {
  const hasRun = typeof (cls.prototype as { run?: unknown }).run === 'function';
  const definition: CommandDefinition = { name: meta.name, description: meta.description };
  if (subs.length === 0) {
    if (!hasRun) {
      throw new InvalidHandlerError(
        `@Command ${cls.name} (/${meta.name}) needs a run(ctx, options) method or @Subcommand methods`,
      );
    }
    const options = meta.options ? deriveOptions(meta.options) : [];
    if (options.length > 0) definition.options = options.map((d) => d.option);
    const route: CommandRoute = { command: meta.name, subcommand: null, method: 'run', options };
    if (meta.options) route.optionsClass = meta.options;
    return { definition, routes: [route], optionSources: options.map((d) => d.source), subOptionSources: [] };
  }
  if (hasRun) {
    throw new InvalidHandlerError(
      `@Command ${cls.name} (/${meta.name}) has both run() and @Subcommand methods: invocations always name a ` +
        'subcommand, so run() would never be called. Remove one.',
    );
  }
  if (meta.options) {
    // CONTRACT: a level holds either only subcommands or none.
    throw new InvalidHandlerError(
      `@Command ${cls.name} (/${meta.name}) has subcommands, so its options belong on each @Subcommand`,
    );
  }
  const routes = subs.map((s): CommandRoute => {
    const options = s.options ? deriveOptions(s.options) : [];
    const route: CommandRoute = { command: meta.name, subcommand: s.name, method: s.method, options };
    if (s.options) route.optionsClass = s.options;
    return route;
  });
  definition.options = routes.map((r, i): CommandOption => {
    const sub = subs[i] as SubcommandMetadata;
    const option: CommandOption = { name: sub.name, description: sub.description, type: 'subcommand' };
    if (r.options.length > 0) option.options = r.options.map((d) => d.option);
    return option;
  });
  return {
    definition,
    routes,
    optionSources: subs.map((s) => `${cls.name}.${s.method}`),
    subOptionSources: routes.map((r) => r.options.map((d) => d.source)),
  };
}
