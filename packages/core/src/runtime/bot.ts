import { randomUUID } from 'node:crypto';
import type { App, CommandDefinition, Logger } from '@boardbot/protocol';
import type { CommandSyncPlan } from '../commands/sync/plan.js';
import { BotStateError } from '../errors.js';
import type { BotHealth } from '../health/bot-health.js';
import type { ReplicaStatusSource } from '../health/replica-status.js';
import { readEnvironment } from '../kernel/environment.js';
import { flushLogger } from '../kernel/logger.js';
import type { BotGateway, GatewayFailure } from '../kernel/ports.js';
import { Services } from '../kernel/services.js';
import { checkPatterns } from '../listeners/patterns/check-patterns.js';
import type { Middleware } from '../policies/middleware.js';
import { assembleBot, type BotParts } from './assemble.js';
import { BOT_EXIT_CODES, exitCodeAfterStop, type StopReport } from './exit-codes.js';
import { openHealth } from './open-health.js';
import type { BotOptions } from './options.js';
import { type ResolvedBotOptions, resolveBotOptions } from './resolve-options.js';
import type { ScaleAdapter } from './scale/scale-port.js';
import { connectReplica, startReplica } from './scale/start-replica.js';
import { closeFeed, closeParts, drainOrAbandon, NOTHING_LEFT, stopPlugins } from './shutdown.js';
import { handleShutdownSignals } from './signals.js';
import { type SingleFeed, startSingle } from './start-single.js';

/** Where a bot is in its life. A stopped bot cannot start again: create a new one. */
export type BotState = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped';

/**
 * A running bot: its handlers, the REST and gateway clients, and the dispatch queue. Create it
 * with `createBot`; everything that can be checked without I/O (decorators, command set,
 * providers) is checked there.
 */
export class Bot {
  /** The command set the handlers declare, as it is registered. */
  readonly commands: readonly CommandDefinition[];
  /** The bot's root logger. */
  readonly log: Logger;
  /** The bot's services (its session store...), which handlers reach through their context. */
  readonly services = new Services();
  private readonly options: ResolvedBotOptions;
  private readonly parts: BotParts;
  /** How many of the middleware came from `use()`: they run before the plugins' (which come last). */
  private ownMiddleware = 0;
  private currentState: BotState = 'idle';
  private currentApp: App | undefined;
  /** The gateway and resume point of a one-process bot. */
  private readonly feed: SingleFeed = {};
  private disposeSignals: (() => void) | undefined;
  private stopping: Promise<StopReport> | undefined;
  private health: BotHealth | undefined;
  private replicas: ReplicaStatusSource | undefined;
  private adapter: ScaleAdapter | undefined;

  /** @param options - see {@link BotOptions} */
  constructor(options: BotOptions) {
    this.options = resolveBotOptions(options, readEnvironment());
    this.parts = assembleBot(this.options, {
      app: () => this.app,
      running: () => this.currentState === 'running',
      setup: (plugin) => plugin.setup?.(this),
      services: this.services,
    });
    this.log = this.parts.log;
    this.commands = this.parts.commands;
  }

  /** Where the bot is in its life. */
  get state(): BotState {
    return this.currentState;
  }

  /** The app the bot runs as; known once `start()` read it. */
  get app(): App {
    if (!this.currentApp) throw new BotStateError('The app is known once start() has read it.');
    return this.currentApp;
  }

  /** Events queued or being handled. */
  get pending(): number {
    return this.parts.queue.size;
  }

  /** Where `/healthz`, `/readyz` and `/metrics` answer (`http://host:port`), once started with `health`. */
  get healthUrl(): string | undefined {
    return this.health?.url;
  }

  /**
   * Feeds the metrics and readiness with a replica's status (for a replica adapter such as
   * `@boardbot/redis`): its pending and dead-lettered events, and whether it consumes (a replica that
   * does not hold the gateway is ready when it does).
   * @param source - read at each scrape and each `/readyz`
   */
  reportReplicas(source: ReplicaStatusSource): this {
    this.replicas = source;
    this.health?.reportReplicas(source);
    return this;
  }

  /** Resolves once every received event has been handled (for tests and harnesses). */
  idle(): Promise<void> {
    // Streams that released their slot run outside the queue.
    return this.parts.queue.idle().then(() => this.parts.dispatcher.runner.settled());
  }

  /**
   * Adds middleware around every command and message handler (after guards and cooldowns), in the
   * order of the calls, before the plugins' middleware.
   * @param middleware - see {@link Middleware}
   */
  use(middleware: Middleware): this {
    // In place: the middleware stage holds this very array. The plugins' middleware stays after the bot's own.
    this.parts.middleware.splice(this.ownMiddleware++, 0, middleware);
    this.parts.dispatcher.runner.replan();
    return this;
  }

  /**
   * Reads the app, reconciles the commands (per `commandSync`), opens the gateway and starts
   * dispatching. Rejects (and leaves nothing open) when any step fails.
   *
   * @returns the sync plan, or undefined with `commandSync: 'off'`
   */
  async start(): Promise<CommandSyncPlan | undefined> {
    if (this.currentState !== 'idle') throw new BotStateError(`start() called while the bot is ${this.currentState}`);
    this.currentState = 'starting';
    const startedAt = this.parts.clock.now();
    const correlationId = randomUUID();
    const log = this.log.child({ correlation_id: correlationId, phase: 'start' });
    const requestOptions = { requestId: correlationId, logger: log };
    // SIGINT and SIGTERM are handled from the first moment: the bot may answer events before it counts
    // as started (while it stores its first resume point), so a signal then must stop it gracefully
    // too, once the start has ended, rather than kill the process.
    let startEnded!: () => void;
    const ended = new Promise<void>((resolve) => (startEnded = resolve));
    if (this.options.handleSignals) {
      this.disposeSignals = handleShutdownSignals(() => ended.then(() => this.stop()).then(exitCodeAfterStop), {
        source: this.options.signals ?? process,
        exit: (code) => this.exitProcess(code),
        log: this.log,
      });
    }
    try {
      await checkPatterns(this.parts.patterns, { stateDir: this.options.stateDir, log });
      if (this.options.health) this.health = await openHealth(this.options.health, this.parts, this.replicas);
      const { scale, rest, commands } = this.parts;
      // A replica connects first: even its first request reserves a slot of the shared rate limit.
      const adapter = scale ? await connectReplica(scale, this.options, this.log, this.parts.clock) : undefined;
      this.adapter = adapter;
      // The adapter knows the replica's role; a source the author reported stays theirs.
      if (adapter?.status && !this.replicas) this.reportReplicas(adapter.status.bind(adapter));
      const app = await rest.getApp(requestOptions);
      this.currentApp = app;
      log.info({ app_id: app.id, bot_user_id: app.bot_user_id }, 'running as app');
      const start = {
        ...{ app, parts: this.parts, options: this.options, startedAt, log, requestOptions },
        gatewayFailed: (error: GatewayFailure) => this.onGatewayError(error),
        watch: (gateway: BotGateway, lastEventId: () => string | undefined) => this.health?.watch(gateway, lastEventId),
        synced: () => this.health?.readiness.commandsSynced(),
      };
      const { plan, facts } = adapter ? await startReplica({ ...start, adapter }) : await startSingle(start, this.feed);
      // Started: the plugins start, and the bot says so.
      this.currentState = 'running';
      for (const plugin of this.parts.plugins) await plugin.onStart?.(this);
      log.info({ ...facts, commands: commands.length }, 'bot started');
      return plan;
    } catch (error) {
      log.error({ err: error }, 'start failed');
      await this.release();
      this.currentState = 'stopped';
      throw error;
    } finally {
      startEnded();
    }
  }

  /**
   * Stops gracefully: closes the gateway (no new events), waits up to `shutdownTimeoutMs` for the
   * queued and running handlers, then closes the REST client and flushes the log. Handlers still
   * running then are abandoned (their `ctx.signal` aborted, their writes dropped, each logged by
   * name) and events not started are dropped; the report says which. Neither counts as handled: the
   * resume point stays below them, so the next process handles them again. Safe to call twice; the
   * second call waits for the first.
   *
   * @returns what was left undone (nothing, after a clean stop)
   */
  stop(): Promise<StopReport> {
    if (this.currentState === 'idle') {
      this.currentState = 'stopped';
      return this.release().then(() => NOTHING_LEFT);
    }
    // A start that failed released everything already.
    if (this.currentState === 'stopped' && !this.stopping) return Promise.resolve(NOTHING_LEFT);
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<StopReport> {
    this.currentState = 'stopping';
    // Out of rotation from the first moment: the load balancer stops sending while handlers finish.
    this.health?.readiness.stopStarted();
    this.log.info({ pending: this.parts.queue.size }, 'stopping: gateway closed, waiting for handlers');
    await this.feed.gateway?.close();
    await this.adapter?.pause().catch((error: unknown) => this.log.warn({ err: error }, 'the replica did not pause'));
    const report = await drainOrAbandon(this.parts, this.feed, this.options.shutdownTimeoutMs);
    await stopPlugins(this.parts, this);
    await this.release();
    this.currentState = 'stopped';
    this.log.info('bot stopped');
    await flushLogger(this.log);
    return report;
  }

  private async release(): Promise<void> {
    this.disposeSignals?.();
    this.disposeSignals = undefined;
    await closeFeed(this.parts, this.feed);
    await this.health?.close();
    this.health = undefined;
    await closeParts(this.parts, this.services, this.adapter, this.options.rest !== undefined);
  }

  private onGatewayError(error: GatewayFailure): void {
    if (error.fatal !== true) {
      this.log.warn({ err: error }, 'gateway reported an error');
      return;
    }
    // 401/403: the token was revoked or the app removed; reconnecting cannot help.
    this.log.error({ err: error }, 'gateway closed for good: stopping the bot');
    if (this.currentState !== 'running') return;
    void this.stop().finally(() => {
      // A bot that owns its process (it handles the signals) ends it with a failure code, so a
      // process manager or a script sees that the bot stopped for good rather than finished.
      if (this.options.handleSignals) this.exitProcess(BOT_EXIT_CODES.failed);
    });
  }

  private exitProcess(code: number): void {
    (this.options.exit ?? ((c: number) => process.exit(c)))(code);
  }
}
