import type { CommandDefinition, CommandOption } from '@boardbot/protocol';
import { InvalidHandlerError } from '../errors.js';
import { type Class, readMetadata, readMetadataList } from '../kernel/metadata.js';
import { COMMAND_KEY, type CommandMetadata, SUBCOMMANDS_KEY, type SubcommandMetadata } from './metadata.js';
import { type DerivedOption, deriveOptions } from './options/derive-options.js';

/** The method that handles one command or subcommand, with its options class and derived options. */
export interface CommandRoute {
  command: string;
  subcommand: string | null;
  method: string;
  optionsClass?: Class;
  options: DerivedOption[];
  /** `@Command({ text })`: whether it can also be invoked as text; absent: as the bot's `textCommands.all` says. */
  text?: boolean;
  /** `@Command({ editable })`: whether its text invocations follow edits; absent: as `textCommands.editable` says. */
  editable?: boolean;
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

/**
 * Reads `@Command` and `@Subcommand` of a class into what it registers and how invocations reach
 * its methods, deriving the option schema; undefined for a class that declares no command.
 * Throws when the declaration cannot work (e.g. a command with neither `run` nor subcommands).
 *
 * @param cls - a handler class
 */
export function describeCommand(cls: Class): CommandDescription | undefined {
  const meta = readMetadata<CommandMetadata>(COMMAND_KEY, cls);
  const subs = readMetadataList<SubcommandMetadata>(SUBCOMMANDS_KEY, cls);
  if (!meta && subs.length > 0) throw new InvalidHandlerError(`${cls.name} has @Subcommand methods but no @Command`);
  return meta ? describe(cls, meta, subs) : undefined;
}

function describe(cls: Class, meta: CommandMetadata, subs: readonly SubcommandMetadata[]): CommandDescription {
  const hasRun = typeof (cls.prototype as { run?: unknown }).run === 'function';
  const definition: CommandDefinition = { name: meta.name, description: meta.description };
  const routeOf = (subcommand: string | null, method: string, optionsClass: Class | undefined): CommandRoute => {
    const options = optionsClass ? deriveOptions(optionsClass) : [];
    const route: CommandRoute = { command: meta.name, subcommand, method, options };
    if (optionsClass) route.optionsClass = optionsClass;
    if (meta.text !== undefined) route.text = meta.text;
    if (meta.editable !== undefined) route.editable = meta.editable;
    return route;
  };
  if (subs.length === 0) {
    if (!hasRun) {
      throw new InvalidHandlerError(
        `@Command ${cls.name} (/${meta.name}) needs a run(ctx, options) method or @Subcommand methods`,
      );
    }
    const route = routeOf(null, 'run', meta.options);
    if (route.options.length > 0) definition.options = route.options.map((d) => d.option);
    return { definition, routes: [route], optionSources: route.options.map((d) => d.source), subOptionSources: [] };
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
  const routes = subs.map((s) => routeOf(s.name, s.method, s.options));
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
