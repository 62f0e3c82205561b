import type { CommandDefinition } from '@boardbot/protocol';
import type { CommandDescription } from '../commands/describe.js';
import { assertValidCommands } from '../commands/validate-commands.js';
import { coreKinds } from '../dispatch/core-features.js';
import { exploreHandler, type HandlerDescription, methodsOf } from '../dispatch/explorer.js';
import { buildRoutes, handlersOf } from '../dispatch/routes.js';
import { BurstUnorderedError } from '../errors.js';
import { Container, type Provider } from '../kernel/container.js';
import type { Class } from '../kernel/metadata.js';
import { MESSAGE_KIND } from '../listeners/handle-message.js';
import type { MessageListenerMetadata } from '../listeners/metadata.js';
import { CommandCatalogue } from '../text-commands/catalogue.js';
import { HelpCommand } from '../text-commands/help-command.js';
import { type ResolvedTextCommandOptions, resolveTextCommandOptions } from '../text-commands/options.js';
import { type BotDefinitionOptions, type BotOptions, DEFAULT_BOT_OPTIONS } from './options.js';
import { checkBotOptions } from './resolve-options.js';

/**
 * A bot as a value: its handlers, providers, plugins and options, checked once, and no running part.
 * `createBot(definition)` runs it, as do the test harness (`createTestPlatform({ bot })`) and the
 * CLI (`boardbot start`, when the bot module exports it). Make one with {@link defineBot}.
 */
export interface BotDefinition {
  /** The options it was defined with. */
  readonly options: Readonly<BotDefinitionOptions>;
  /** Its handler classes (`options.handlers`): `boardbot commands` reads them. */
  readonly handlers: readonly Class[];
  /** The command set its handlers declare, as it is registered. */
  readonly commands: readonly CommandDefinition[];
}

/** What checking a definition found, kept so that `createBot` does not read the classes again. */
export interface CheckedDefinition {
  textCommands: ResolvedTextCommandOptions;
  /** Core's kinds the handlers were read with (the command kind reads the command set). */
  core: ReturnType<typeof coreKinds>;
  /** Every handler class, described (the plugins' and a generated `help` included). */
  described: readonly HandlerDescription[];
  commands: readonly CommandDescription[];
  /** What `help` lists, and the bot's classes may inject. */
  catalogue: CommandCatalogue;
  /** The message listeners, whose patterns the start checks for catastrophic backtracking. */
  listeners: readonly MessageListenerMetadata[];
}

// A registered symbol: a definition made by another copy of core is recognised too (and checked again).
const BRAND = Symbol.for('boardbot.botDefinition');
const CHECKED = new WeakMap<BotDefinition, CheckedDefinition>();
/** The options that `defineBot` checks: a definition given other ones when created is checked again. */
const DEFINING =
  'handlers plugins providers textCommands orderBy exhaustedInteraction concurrency maxPendingEvents source scale';

/**
 * The providers the bot's classes may inject: the bot's, its plugins', and the command catalogue.
 * @param options - the bot's providers and plugins
 * @param catalogue - the command catalogue
 */
export function providersOf(options: BotDefinitionOptions, catalogue: CommandCatalogue): Provider[] {
  const plugins = options.plugins ?? [];
  return [
    ...(options.providers ?? []),
    ...plugins.flatMap((p) => p.providers ?? []),
    { provide: CommandCatalogue, useValue: catalogue },
  ];
}

/** Reads and checks everything that can be without I/O and without building a class. */
function check(options: BotDefinitionOptions): CheckedDefinition {
  checkBotOptions(options);
  const textCommands = resolveTextCommandOptions(options.textCommands);
  const exhaustedInteraction = options.exhaustedInteraction ?? DEFAULT_BOT_OPTIONS.exhaustedInteraction;
  const core = coreKinds({ exhaustedInteraction, textCommands });
  const plugins = options.plugins ?? [];
  const kinds = [...core.all, ...plugins.flatMap((p) => p.kinds ?? [])];
  const classes = [...options.handlers, ...plugins.flatMap((p) => p.handlers ?? [])];
  const described = classes.map((h) => exploreHandler(h, kinds));
  // Each `@Command` class once, in handler order, as its routes carry it.
  const commands = [...new Set(described.flatMap((d) => methodsOf(d, core.commands).map((m) => m.command)))];
  assertValidCommands(commands);
  // The generated `help`, routed but not registered, when a command can be invoked as text and the bot
  // has no `help` of its own (listing `HelpCommand` in the handlers registers it as `/help` too).
  const textual = commands.some((c) => c.routes.some((r) => r.text ?? textCommands.all));
  const own = commands.some((c) => c.definition.name === 'help');
  const all = textual && !own ? [...described, exploreHandler(HelpCommand, kinds)] : described;
  const catalogue = new CommandCatalogue(commands, textCommands);
  // Every class and guard resolved through the providers, as createBot builds them, but none built.
  const container = new Container(providersOf(options, catalogue), true);
  const routes = buildRoutes(
    all,
    container,
    plugins.flatMap((p) => p.guards ?? []),
  );
  const listeners = handlersOf(routes, MESSAGE_KIND);
  // A burst is formed from a key's messages in their order, which only `'board'` and `'user'` keep.
  const bursty = listeners.filter(({ meta }) => meta.event === 'message.create' && meta.burst !== undefined);
  if ((options.orderBy ?? DEFAULT_BOT_OPTIONS.orderBy) === 'none' && bursty.length > 0) {
    throw new BurstUnorderedError(bursty.map(({ target }) => target.label));
  }
  return { textCommands, core, described: all, commands, catalogue, listeners: listeners.map(({ meta }) => meta) };
}

/**
 * Defines a bot: reads its handlers' decorators, derives and checks its command set, resolves every
 * class's providers (building none) and checks its options, so that a mistake fails here, before
 * anything runs. The definition is a value: export it from the bot module, give it to `createBot`,
 * to the test harness and to `boardbot start`.
 *
 * @param options - `handlers` and any other option of `createBot`, the token included (usually left
 *   to `createBot`)
 * @example
 * export default defineBot({ handlers: [Roll], providers: [Dice] });
 * // main.ts: await createBot(bot, { token: process.env.BOARDBOT_TOKEN ?? '' }).start();
 */
export function defineBot(options: BotDefinitionOptions): BotDefinition {
  const checked = check(options);
  const definition: BotDefinition = {
    options: Object.freeze({ ...options }),
    handlers: options.handlers,
    commands: checked.commands.map((c) => c.definition),
  };
  Object.defineProperty(definition, BRAND, { value: true });
  CHECKED.set(Object.freeze(definition), checked);
  return definition;
}

/**
 * Whether `value` is a bot's definition, from this or another copy of core.
 * @param value - anything (a module's default export)
 */
export function isBotDefinition(value: unknown): value is BotDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * The definition's checks, as `defineBot` made them (a definition of another copy of core: checked again).
 * @param definition - the definition
 */
export function checkedDefinition(definition: BotDefinition): CheckedDefinition {
  return CHECKED.get(definition) ?? check(definition.options);
}

/**
 * A definition with the options given when the bot is created: the runtime's own (the token, a fake
 * clock) leave it as it was checked; one it checks (handlers, providers...) makes a new one, checked
 * again. A provider given replaces the definition's for the same class; the others stay.
 * @param definition - the bot's definition
 * @param overrides - options of `createBot`
 * @returns the definition to create from, and the options the bot runs with
 */
export function withOverrides(
  definition: BotDefinition,
  overrides: Partial<BotOptions>,
): { definition: BotDefinition; options: BotDefinitionOptions } {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  const providers = mergeProviders(definition.options.providers ?? [], overrides.providers ?? []);
  const options = { ...definition.options, ...given, providers };
  const redefine = Object.keys(given).some((key) => DEFINING.split(' ').includes(key));
  return { definition: redefine ? defineBot(options) : definition, options };
}

/** The definition's providers, those of `overrides` in place of the ones for the same class. */
function mergeProviders(base: readonly Provider[], overrides: readonly Provider[]): Provider[] {
  const token = (p: Provider) => (typeof p === 'function' ? p : p.provide);
  const replaced = new Set(overrides.map(token));
  return [...base.filter((p) => !replaced.has(token(p))), ...overrides];
}
