import type { App, CommandDefinition, Logger } from '@boardbot/protocol';
import { RestClient } from '@boardbot/rest';
import { trace } from '@opentelemetry/api';
import type { CommandDescription } from '../commands/describe.js';
import { assertValidCommands } from '../commands/validate-commands.js';
import { coreFeatures } from '../dispatch/core-features.js';
import { Dispatcher } from '../dispatch/dispatcher.js';
import { exploreHandler, type HandlerDescription, methodsOf } from '../dispatch/explorer.js';
import { KeyedQueue } from '../dispatch/keyed-queue.js';
import { buildRoutes, handlersOf } from '../dispatch/routes.js';
import { type Clock, systemClock } from '../kernel/clock.js';
import { Container } from '../kernel/container.js';
import { createLogger } from '../kernel/logger.js';
import type { BotRest } from '../kernel/ports.js';
import type { Services } from '../kernel/services.js';
import { MESSAGE_KIND } from '../listeners/handle-message.js';
import type { DeclaredPattern } from '../listeners/patterns/verdict.js';
import type { Plugin } from '../plugins/plugin.js';
import { Cooldowns } from '../policies/cooldowns.js';
import type { KindDefinition } from '../policies/kind.js';
import type { Middleware } from '../policies/middleware.js';
import { SCHEDULE_KIND, scheduledMethod, TickHandler } from '../schedules/handle-tick.js';
import { Scheduler } from '../schedules/scheduler.js';
import { FileSessionStore } from '../sessions/file-session-store.js';
import { SESSION_STORE } from '../sessions/service.js';
import { Telemetry } from '../telemetry/telemetry.js';
import { CommandCatalogue } from '../text-commands/catalogue.js';
import { HelpCommand } from '../text-commands/help-command.js';
import type { ResolvedTextCommandOptions } from '../text-commands/options.js';
import { assertBurstsOrdered } from './check-burst-order.js';
import { patternsToCheck } from './patterns-to-check.js';
import { FilePositionStore } from './position/file-position-store.js';
import type { PositionStore } from './position/position-store.js';
import type { ResolvedBotOptions } from './resolve-options.js';
import { ScaleSlot } from './scale/scale-slot.js';

/** The parts of a bot, built once by {@link assembleBot} before anything connects. */
export interface BotParts {
  log: Logger;
  clock: Clock;
  /** The command set the handlers declare. */
  commands: CommandDefinition[];
  /** Middleware around every command and message handler; the dispatcher holds this very array. */
  middleware: Middleware[];
  /** The plugins, the bot's scheduler last. */
  plugins: Plugin[];
  telemetry: Telemetry;
  /** The replicas' adapter (`scale`, or `BOARDBOT_REDIS_URL`); undefined for a single process. */
  scale: ScaleSlot | undefined;
  rest: BotRest;
  dispatcher: Dispatcher;
  queue: KeyedQueue;
  /** Where the resume point is kept; undefined with `position: false` or replicas (their adapter keeps it). */
  positions: PositionStore | undefined;
  /** The regular expressions a stranger's text reaches, which `start()` checks for catastrophic backtracking. */
  patterns: DeclaredPattern[];
}

/** What the parts ask of the bot they make up. */
export interface BotShell {
  /** The app, once `start()` read it. */
  app(): App;
  /** Whether the bot runs (schedules tick only then). */
  running(): boolean;
  /** Lets a plugin set the bot up, before its handlers are read. */
  setup(plugin: Plugin): void;
  /** The bot's services, which handlers reach through their context. */
  services: Services;
}

/**
 * The generated `help`, routed but not registered, when a command can be invoked as text and the bot
 * has no `help` of its own (listing `HelpCommand` in the handlers registers it as `/help` too).
 */
function textHelp(
  commands: readonly CommandDescription[],
  text: ResolvedTextCommandOptions,
  kinds: readonly KindDefinition[],
): HandlerDescription[] {
  const textual = commands.some((c) => c.routes.some((r) => r.text ?? text.all));
  const own = commands.some((c) => c.definition.name === 'help');
  return textual && !own ? [exploreHandler(HelpCommand, kinds)] : [];
}

/**
 * Builds a bot's parts from its resolved options: explores the handlers (checking decorators, the
 * command set and providers, so mistakes fail before any request), then the telemetry, the REST
 * client, the dispatcher and its queue, the scheduler and the stores.
 *
 * @param o - the resolved options
 * @param shell - the bot the parts belong to
 */
export function assembleBot(o: ResolvedBotOptions, shell: BotShell): BotParts {
  const clock = o.clock ?? systemClock;
  const log = createLogger(o.logger);
  const plugins = [...(o.plugins ?? [])];
  for (const plugin of plugins) shell.setup(plugin);
  const middleware = plugins.flatMap((p) => p.middleware ?? []);
  const scale =
    o.scale === false || (o.scale === undefined && !o.redisUrl)
      ? undefined
      : new ScaleSlot(o.scale ?? (o.redisUrl as string));
  const cooldowns = o.cooldowns ?? scale?.cooldowns ?? new Cooldowns(() => clock.now());
  const { exhaustedInteraction, textCommands } = o;
  const core = coreFeatures({ exhaustedInteraction, textCommands, cooldowns, middleware });
  const features = [...core.features, ...plugins];
  const kinds = features.flatMap((f) => f.kinds ?? []);
  const described = [...o.handlers, ...plugins.flatMap((p) => p.handlers ?? [])].map((h) => exploreHandler(h, kinds));
  // Each `@Command` class once, in handler order, as its routes carry it.
  const commands = [...new Set(described.flatMap((d) => methodsOf(d, core.commands).map((m) => m.command)))];
  assertValidCommands(commands);
  const catalogue = new CommandCatalogue(commands, o.textCommands);
  const providers = [
    ...o.providers,
    ...plugins.flatMap((p) => p.providers ?? []),
    { provide: CommandCatalogue, useValue: catalogue },
  ];
  const routes = buildRoutes(
    [...described, ...textHelp(commands, o.textCommands, kinds)],
    new Container(providers),
    plugins.flatMap((p) => p.guards ?? []),
  );
  const tracing = o.tracing ?? trace.getTracerProvider();
  const telemetry = new Telemetry(tracing);
  // Replicas share their adapter's store (Redis) unless the author chose one.
  const { services } = shell;
  const ownStore = new FileSessionStore(o.stateDir, { clock, log });
  services.set(SESSION_STORE, o.sessions ?? scale?.sessions(ownStore) ?? ownStore);
  const rest =
    o.rest ??
    new RestClient({
      token: o.token,
      baseUrl: o.apiUrl,
      logger: log,
      tracerProvider: tracing,
      sharedRateLimit: scale?.rateLimit,
    });
  if (o.rest && scale) {
    log.warn(
      'the REST client given to createBot does not share the rate limit with the other replicas unless it was ' +
        'created with new RestClient({ ..., sharedRateLimit }): together they may draw 429s.',
    );
  }
  const queue = new KeyedQueue(o.concurrency, (error) => log.error({ err: error }, 'dispatch failed'));
  const messageListeners = handlersOf(routes, MESSAGE_KIND);
  assertBurstsOrdered(messageListeners, o.orderBy);
  const { handlerTimeoutMs, errorReply, onError, refusalIntervalMs } = o;
  const built = { queue, rest, app: shell.app, log, clock, services, telemetry };
  const policy = { handlerTimeoutMs, errorReply, onError, refusalIntervalMs };
  const dispatcher = new Dispatcher({ ...policy, ...built, routes, features });
  // Schedules are a plugin of the bot's own: started with the plugins, stopped with them.
  const scheduler = new Scheduler({
    ...built,
    schedules: handlersOf(routes, SCHEDULE_KIND).map(scheduledMethod),
    ticks: new TickHandler({ ...built }, dispatcher.runner),
    store: () => services.get(SESSION_STORE),
    accepting: shell.running,
    handlerTimeoutMs,
  });
  // Replicas keep the resume point where they share the gateway feed (the adapter's store).
  const positions = o.position === false || scale ? undefined : (o.position ?? new FilePositionStore(o.stateDir, log));
  return {
    log,
    clock,
    commands: commands.map((c) => c.definition),
    middleware,
    plugins: [...plugins, scheduler],
    telemetry,
    scale,
    rest,
    dispatcher,
    queue,
    positions,
    patterns: patternsToCheck(
      { handlers: described, commands: core.commands, listeners: messageListeners.map(({ meta }) => meta) },
      services,
      { stateDir: o.stateDir, log },
    ),
  };
}
