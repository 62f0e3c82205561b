import type { Logger } from '@boardbot/protocol';
import type { Provider } from '../kernel/container.js';
import type { Class } from '../kernel/metadata.js';
import type { Services } from '../kernel/services.js';
import type { EndingRule } from '../policies/endings.js';
import type { GuardRef } from '../policies/guards.js';
import type { KindDefinition } from '../policies/kind.js';
import type { Middleware } from '../policies/middleware.js';
import type { Stage } from '../policies/stages.js';

/** What a plugin's lifecycle hooks receive: the bot's services and its logger. */
export interface PluginHost {
  readonly services: Services;
  readonly log: Logger;
}

/**
 * A reusable bundle for `createBot({ plugins })`: handler classes, providers, middleware, guards that
 * run before every handler of the bot, services, start/stop hooks, and what it adds to every run:
 * stages, endings and kinds of handler (core's own features are given the same way).
 */
export interface Plugin {
  /** The plugin's name, for logs and errors (by convention, its npm package name). */
  name: string;
  /** Handler classes added to the bot's. */
  handlers?: readonly Class[];
  /** Providers added to the bot's (its handlers and the bot's may inject them). */
  providers?: readonly Provider[];
  /** Middleware around every command and message handler, after the bot's own. */
  middleware?: readonly Middleware[];
  /** Guards run before every command and message handler of the bot, before the handler's own. */
  guards?: readonly GuardRef[];
  /** Stages of every run they apply to, after core's in each phase (see docs/plugins.md, "A stage"). */
  stages?: readonly Stage[];
  /** How runs that threw end, asked after core's (see `EndingRule`). */
  endings?: readonly EndingRule[];
  /** Kinds of handler: the decorators they read, what runs their handlers (see docs/plugins.md, "A kind of handler"). */
  kinds?: readonly KindDefinition[];
  /** Sets the plugin's services (a store, a client) when the bot is created. */
  setup?(host: PluginHost): void;
  /** Runs once the bot has started (connected and dispatching). */
  onStart?(host: PluginHost): void | Promise<void>;
  /** Runs while the bot stops, after its handlers finished. */
  onStop?(host: PluginHost): void | Promise<void>;
}

/**
 * Declares a plugin with typed options: returns the function users call in `plugins: [...]`.
 *
 * @param build - makes the plugin from its options
 * @example
 * export const greeter = definePlugin((options: { greeting: string }) => ({ name: 'greeter', handlers: [Greet] }));
 * createBot({ token, handlers: [], plugins: [greeter({ greeting: 'Hi' })] });
 */
export function definePlugin<O>(build: (options: O) => Plugin): (options: O) => Plugin {
  return build;
}
