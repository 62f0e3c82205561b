import type { Logger } from '@boardbot/protocol';
import type { Provider } from '../kernel/container.js';
import type { Class } from '../kernel/metadata.js';
import type { Services } from '../kernel/services.js';
import type { GuardRef } from '../policies/guards.js';
import type { Middleware } from '../policies/middleware.js';

/** What a plugin's lifecycle hooks receive: the bot's services and its logger. */
export interface PluginHost {
  readonly services: Services;
  readonly log: Logger;
}

/**
 * A reusable bundle for `createBot({ plugins })`: handler classes, providers, middleware, guards that
 * run before every handler of the bot, services, and start/stop hooks.
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
