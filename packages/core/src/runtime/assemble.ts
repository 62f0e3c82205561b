import type { App, CommandDefinition, Logger } from '@boardbot/protocol';
import { RestClient, type RestClientOptions } from '@boardbot/rest';
import { trace } from '@opentelemetry/api';
import { coreFeatures } from '../dispatch/core-features.js';
import { Dispatcher } from '../dispatch/dispatcher.js';
import { KeyedQueue } from '../dispatch/keyed-queue.js';
import { buildRoutes, handlersOf } from '../dispatch/routes.js';
import { type Clock, systemClock } from '../kernel/clock.js';
import { Container } from '../kernel/container.js';
import { createLogger } from '../kernel/logger.js';
import type { BotRest } from '../kernel/ports.js';
import type { Services } from '../kernel/services.js';
import type { DeclaredPattern } from '../listeners/patterns/verdict.js';
import type { Plugin } from '../plugins/plugin.js';
import { Cooldowns } from '../policies/cooldowns.js';
import type { Middleware } from '../policies/middleware.js';
import { SCHEDULE_KIND, scheduledMethod, TickHandler } from '../schedules/handle-tick.js';
import { Scheduler } from '../schedules/scheduler.js';
import { FileSessionStore } from '../sessions/file-session-store.js';
import { SESSION_STORE } from '../sessions/service.js';
import { Telemetry } from '../telemetry/telemetry.js';
import { type CheckedDefinition, providersOf } from './define-bot.js';
import { patternsToCheck } from './patterns-to-check.js';
import { FilePositionStore } from './position/file-position-store.js';
import type { ResolvedBotOptions } from './resolve-options.js';
import type { ScaleAdapter } from './scale/scale-port.js';
import type { BotEventSource } from './source/event-source.js';
import { GatewaySource } from './source/gateway-source.js';

/** What a bot is built from, once, by {@link assembleBot} before anything connects: its parts' material. */
export interface Assembly {
  log: Logger;
  clock: Clock;
  /** The command set the handlers declare. */
  commands: CommandDefinition[];
  /** Middleware around every command and message handler; the dispatcher holds this very array. */
  middleware: Middleware[];
  /** The plugins. */
  plugins: Plugin[];
  /** The bot's own plugin that runs its `@Every` and `@Cron` methods. */
  scheduler: Scheduler;
  telemetry: Telemetry;
  /** The replicas' adapter (`scale`); undefined for a single process. */
  scale: ScaleAdapter | undefined;
  /** Builds the handlers and providers; disposes of the providers when the bot closes. */
  container: Container;
  /** Where the events come from: the replicas' adapter, the `source` given, else the gateway. */
  source: BotEventSource;
  rest: BotRest;
  dispatcher: Dispatcher;
  queue: KeyedQueue;
  /** The regular expressions a stranger's text reaches, which `start()` checks for catastrophic backtracking. */
  patterns: DeclaredPattern[];
}

/** What the parts ask of the bot they make up. */
export interface BotShell {
  /** The app, once `start()` read it. */
  app(): App;
  /** Whether the bot runs (schedules tick only then). */
  running(): boolean;
  /** Lets a plugin set the bot up, before its handlers are built. */
  setup(plugin: Plugin): void;
  /** The bot's services, which handlers reach through their context. */
  services: Services;
  /** The HTTP pool its REST client uses, when shared (a host of apps). @defaultValue the client's own */
  dispatcher?: RestClientOptions['dispatcher'];
}

/**
 * Builds a bot from its checked definition and its resolved options: its handlers through the
 * container, the telemetry, the REST client, the dispatcher and its queue, the scheduler, the stores
 * and the event source. Everything exists from here on: the start only opens what was built.
 *
 * @param o - the resolved options
 * @param checked - the definition's checks (its described handlers and commands)
 * @param shell - the bot the parts belong to
 */
export function assembleBot(o: ResolvedBotOptions, checked: CheckedDefinition, shell: BotShell): Assembly {
  const clock = o.clock ?? systemClock;
  const log = createLogger(o.logger);
  const plugins = [...(o.plugins ?? [])];
  for (const plugin of plugins) shell.setup(plugin);
  const middleware = plugins.flatMap((p) => p.middleware ?? []);
  const scale = o.scale || undefined;
  const cooldowns = o.cooldowns ?? scale?.cooldowns ?? new Cooldowns(() => clock.now());
  const { exhaustedInteraction, textCommands } = o;
  const core = coreFeatures({ exhaustedInteraction, textCommands, cooldowns, middleware }, checked.core);
  const features = [...core.features, ...plugins];
  const container = new Container(providersOf(o, checked.catalogue));
  const routes = buildRoutes(
    checked.described,
    container,
    plugins.flatMap((p) => p.guards ?? []),
  );
  const tracing = o.tracing ?? trace.getTracerProvider();
  const telemetry = new Telemetry(tracing);
  // Replicas share their adapter's store (Redis) unless the author chose one.
  const { services } = shell;
  services.set(SESSION_STORE, o.sessions ?? scale?.sessions ?? new FileSessionStore(o.stateDir, { clock, log }));
  const rest =
    o.rest ??
    new RestClient({
      token: o.token,
      baseUrl: o.apiUrl,
      logger: log,
      tracerProvider: tracing,
      sharedRateLimit: scale?.rateLimit,
      dispatcher: shell.dispatcher,
    });
  if (o.rest && scale) {
    log.warn(
      'the REST client given to createBot does not share the rate limit with the other replicas unless it was ' +
        'created with new RestClient({ ..., sharedRateLimit }): together they may draw 429s.',
    );
  }
  const queue = new KeyedQueue(o.concurrency, (error) => log.error({ err: error }, 'dispatch failed'));
  const { handlerTimeoutMs, errorReply, onError, refusalIntervalMs } = o;
  const built = { queue, rest, app: shell.app, log, clock, services, telemetry };
  const policy = { handlerTimeoutMs, errorReply, onError, refusalIntervalMs };
  const dispatcher = new Dispatcher({ ...policy, ...built, routes, features });
  const scheduler = new Scheduler({
    ...built,
    schedules: handlersOf(routes, SCHEDULE_KIND).map(scheduledMethod),
    ticks: new TickHandler({ ...built }, dispatcher.runner),
    store: () => services.get(SESSION_STORE),
    accepting: shell.running,
    handlerTimeoutMs,
  });
  // Replicas keep the resume point where they share the gateway feed (the adapter's store).
  const source = scale ?? o.source ?? gatewaySource(o, clock, log);
  return {
    ...{ log, clock, middleware, plugins, scheduler, telemetry, scale, source, rest, dispatcher, queue, container },
    commands: checked.commands.map((c) => c.definition),
    patterns: patternsToCheck(checked, services, { stateDir: o.stateDir, log }),
  };
}

/** The default source: the gateway, resumed after `position` (a file under `stateDir`; none with `false`). */
function gatewaySource(o: ResolvedBotOptions, clock: Clock, log: Logger): GatewaySource {
  const positions = o.position === false ? undefined : (o.position ?? new FilePositionStore(o.stateDir, log));
  return new GatewaySource({ positions, flushMs: o.positionFlushMs, clock });
}
