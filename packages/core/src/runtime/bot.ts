import { createHash, randomUUID } from 'node:crypto';
import type { App, CommandDefinition, Logger } from '@boardbot/protocol';
import { trace } from '@opentelemetry/api';
import type { CommandSyncPlan } from '../commands/sync/plan.js';
import { syncCommands } from '../commands/sync/sync.js';
import { assertValidCommands } from '../commands/validate-commands.js';
import { Dispatcher } from '../dispatch/dispatcher.js';
import { exploreHandler } from '../dispatch/explorer.js';
import { KeyedQueue } from '../dispatch/keyed-queue.js';
import { buildRoutes } from '../dispatch/routes.js';
import { BotStateError, InvalidConfigError } from '../errors.js';
import type { BotHealth } from '../health/bot-health.js';
import { healthFromEnv } from '../health/health-env.js';
import type { ReplicaStatusSource } from '../health/replica-status.js';
import { type Clock, systemClock } from '../kernel/clock.js';
import { Container } from '../kernel/container.js';
import { createLogger, flushLogger } from '../kernel/logger.js';
import type { BotGateway, BotRest, GatewayFailure } from '../kernel/ports.js';
import { Services } from '../kernel/services.js';
import type { Plugin } from '../plugins/plugin.js';
import type { Middleware } from '../policies/middleware.js';
import { Scheduler } from '../schedules/scheduler.js';
import { FileSessionStore } from '../sessions/file-session-store.js';
import { SESSION_STORE } from '../sessions/service.js';
import { Telemetry } from '../telemetry/telemetry.js';
import { createGateway, createRest } from './clients.js';
import { BOT_EXIT_CODES, exitCodeAfterStop, type StopReport } from './exit-codes.js';
import { Intake } from './intake.js';
import { type BotOptions, DEFAULT_BOT_OPTIONS } from './options.js';
import { FilePositionStore } from './position/file-position-store.js';
import { PositionKeeper } from './position/position-keeper.js';
import type { Position, PositionKey, PositionStore } from './position/position-store.js';
import { Progress } from './position/progress.js';
import { rateLimitedFetch } from './scale/rate-limited-fetch.js';
import type { ScaleAdapter } from './scale/scale-port.js';
import { ScaleSlot } from './scale/scale-slot.js';
import { startReplica } from './scale/start-replica.js';
import { handleShutdownSignals } from './signals.js';

/** What a stop that finished everything reports. */
const NOTHING_LEFT: StopReport = { abandoned: [], unhandled: 0 };

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
  private readonly options: BotOptions & typeof DEFAULT_BOT_OPTIONS;
  private readonly clock: Clock;
  private readonly rest: BotRest;
  private readonly middleware: Middleware[] = [];
  /** How many of `middleware` came from `use()`: they run before the plugins' (which come last). */
  private ownMiddleware = 0;
  private readonly dispatcher: Dispatcher;
  private readonly queue: KeyedQueue;
  private currentState: BotState = 'idle';
  private currentApp: App | undefined;
  private gateway: BotGateway | undefined;
  private disposeSignals: (() => void) | undefined;
  private stopping: Promise<StopReport> | undefined;
  private readonly positions: PositionStore | undefined;
  private keeper: PositionKeeper | undefined;
  private progress: Progress | undefined;
  private readonly telemetry: Telemetry;
  private health: BotHealth | undefined;
  private replicas: ReplicaStatusSource | undefined;
  /** The replicas' adapter (`scale`, or `BOARDBOT_REDIS_URL`); undefined for a single process. */
  private readonly scale: ScaleSlot | undefined;
  private adapter: ScaleAdapter | undefined;
  private plugins: readonly Plugin[];
  /** The bot's services (its session store...), which handlers reach through their context. */
  readonly services = new Services();

  /** @param options - see {@link BotOptions} */
  constructor(options: BotOptions) {
    if (typeof options.token !== 'string' || options.token.trim() === '') {
      throw new InvalidConfigError(
        'createBot needs the app token: set BOARDBOT_TOKEN and pass { token: process.env.BOARDBOT_TOKEN }.',
      );
    }
    const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.options = {
      ...DEFAULT_BOT_OPTIONS,
      apiUrl: process.env.BOARDBOT_API_URL ?? DEFAULT_BOT_OPTIONS.apiUrl,
      stateDir: process.env.BOARDBOT_STATE_DIR ?? DEFAULT_BOT_OPTIONS.stateDir,
      health: healthFromEnv(process.env),
      ...defined,
    } as BotOptions & typeof DEFAULT_BOT_OPTIONS;
    if (!(this.options.concurrency >= 1)) throw new InvalidConfigError('concurrency must be at least 1');
    if (!['board', 'user', 'none'].includes(this.options.orderBy)) {
      throw new InvalidConfigError(`orderBy must be 'board', 'user' or 'none', got ${String(this.options.orderBy)}`);
    }
    if (this.options.exhaustedInteraction !== 'error' && this.options.exhaustedInteraction !== 'send') {
      throw new InvalidConfigError("exhaustedInteraction must be 'error' (the default) or 'send'");
    }
    this.clock = options.clock ?? systemClock;
    this.log = createLogger(options.logger);
    this.plugins = options.plugins ?? [];
    for (const plugin of this.plugins) plugin.setup?.(this);
    const described = [...options.handlers, ...this.plugins.flatMap((p) => p.handlers ?? [])].map((h) =>
      exploreHandler(h),
    );
    const commands = described.flatMap((d) => (d.command ? [d.command] : []));
    assertValidCommands(commands);
    this.commands = commands.map((c) => c.definition);
    const providers = [...this.options.providers, ...this.plugins.flatMap((p) => p.providers ?? [])];
    const routes = buildRoutes(
      described,
      new Container(providers),
      this.plugins.flatMap((p) => p.guards ?? []),
    );
    this.middleware.push(...this.plugins.flatMap((p) => p.middleware ?? []));
    const tracing = options.tracing ?? trace.getTracerProvider();
    this.telemetry = new Telemetry(tracing);
    const redisUrl = process.env.BOARDBOT_REDIS_URL;
    this.scale =
      options.scale === false || (options.scale === undefined && !redisUrl)
        ? undefined
        : new ScaleSlot(options.scale ?? (redisUrl as string));
    // Replicas share their adapter's store (Redis) unless the author chose one.
    const ownStore = new FileSessionStore(this.options.stateDir);
    this.services.set(SESSION_STORE, options.sessions ?? this.scale?.sessions(ownStore) ?? ownStore);
    this.rest =
      options.rest ??
      createRest({
        token: options.token,
        baseUrl: this.options.apiUrl,
        logger: this.log,
        tracerProvider: tracing,
        sharedRateLimit: this.scale?.rateLimit,
      });
    if (options.rest && this.scale) {
      this.log.warn(
        'the REST client given to createBot does not share the rate limit with the other replicas unless it was ' +
          'created with new RestClient({ ..., sharedRateLimit }): together they may draw 429s.',
      );
    }
    this.dispatcher = new Dispatcher({
      routes,
      middleware: this.middleware,
      rest: this.rest,
      app: () => this.app,
      log: this.log,
      clock: this.clock,
      services: this.services,
      handlerTimeoutMs: this.options.handlerTimeoutMs,
      errorReply: this.options.errorReply,
      onError: options.onError,
      exhaustedInteraction: this.options.exhaustedInteraction,
      telemetry: this.telemetry,
      cooldowns: this.scale?.cooldowns,
    });
    this.queue = new KeyedQueue(this.options.concurrency, (error) => this.log.error({ err: error }, 'dispatch failed'));
    // Schedules are a plugin of the bot's own: started with the plugins, stopped with them.
    const scheduler = new Scheduler({
      schedules: routes.schedules,
      queue: this.queue,
      ticks: this.dispatcher.ticks,
      store: () => this.services.get(SESSION_STORE),
      clock: this.clock,
      log: this.log,
      app: () => this.app,
      accepting: () => this.currentState === 'running',
      handlerTimeoutMs: this.options.handlerTimeoutMs,
    });
    this.plugins = [...this.plugins, scheduler];
    const position = options.position;
    // Replicas keep the resume point where they share the gateway feed (the adapter's store).
    this.positions =
      position === false || this.scale
        ? undefined
        : (position ?? new FilePositionStore(this.options.stateDir, this.log));
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
    return this.queue.size;
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
    return this.queue.idle();
  }

  /**
   * Adds middleware around every command and message handler (after guards and cooldowns), in the
   * order of the calls, before the plugins' middleware.
   * @param middleware - see {@link Middleware}
   */
  use(middleware: Middleware): this {
    // In place: the dispatcher holds this very array. The plugins' middleware stays after the bot's own.
    this.middleware.splice(this.ownMiddleware++, 0, middleware);
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
    const startedAt = this.clock.now();
    const correlationId = randomUUID();
    const log = this.log.child({ correlation_id: correlationId, phase: 'start' });
    const requestOptions = { requestId: correlationId, logger: log };
    let startEnded!: () => void;
    this.handleSignals(new Promise<void>((resolve) => (startEnded = resolve)));
    try {
      if (this.options.health) await this.startHealth(this.options.health);
      // A replica connects first: even its first request reserves a slot of the shared rate limit.
      if (this.scale) await this.connectReplica(this.scale);
      this.currentApp = await this.rest.getApp(requestOptions);
      log.info({ app_id: this.currentApp.id, bot_user_id: this.currentApp.bot_user_id }, 'running as app');
      if (this.scale && this.adapter) {
        const plan = await this.startReplica(this.scale, this.adapter, startedAt, log, requestOptions);
        this.health?.readiness.commandsSynced();
        await this.running(log, { replica: true, commands: this.commands.length });
        return plan;
      }
      const plan = await syncCommands(this.rest, [...this.commands], this.options.commandSync, log, requestOptions);
      this.health?.readiness.commandsSynced();
      const key: PositionKey = { apiUrl: this.options.apiUrl, appId: this.currentApp.id };
      const position = await this.loadPosition(key, log);
      // With `position: false` nothing is recorded: no Progress, no keeper.
      const progress = this.positions ? new Progress(position) : undefined;
      this.progress = progress;
      if (this.positions && progress) {
        this.keeper = new PositionKeeper(this.positions, key, progress, {
          flushMs: this.options.positionFlushMs,
          clock: this.clock,
          log: this.log,
        });
      }
      const intake = new Intake({
        queue: this.queue,
        dispatcher: this.dispatcher,
        progress,
        keeper: this.keeper,
        orderBy: this.options.orderBy,
        rest: this.rest,
        log: this.log,
        backfillLimit: this.options.backfillLimit,
        startedAt,
        since: position?.savedAt ?? startedAt,
        telemetry: this.telemetry,
      });
      const gateway = (this.options.gateway ?? createGateway)({
        token: this.options.token,
        baseUrl: this.options.apiUrl,
        logger: this.log,
        lastEventId: position?.eventId,
      });
      this.gateway = gateway;
      gateway.on('dispatch', (event) => intake.receive(event));
      gateway.on('error', (error) => this.onGatewayError(error));
      this.health?.watch(gateway, () => progress?.lastEventId);
      const ready = await gateway.connect();
      if (position?.eventId === undefined && this.keeper) {
        // A first start: the live stream's cursor is the resume point from now on. Stored before the
        // bot counts as started, so a crash right after cannot lose what arrives next.
        await this.keeper.flush();
        log.info({ last_event_id: progress?.lastEventId }, 'resume point stored at the live stream');
      }
      await this.running(log, { boards: ready.board_ids.length, commands: this.commands.length });
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
   * Handles SIGINT and SIGTERM from the first moment of `start()`: the bot may answer events before
   * it counts as started (while it stores its first resume point), so a signal then must stop it
   * gracefully too, once the start has ended, rather than kill the process.
   * @param startEnded - settles when `start()` has resolved or rejected
   */
  private handleSignals(startEnded: Promise<void>): void {
    if (!this.options.handleSignals) return;
    this.disposeSignals = handleShutdownSignals(() => startEnded.then(() => this.stop()).then(exitCodeAfterStop), {
      source: this.options.signals ?? process,
      exit: (code) => this.exitProcess(code),
      log: this.log,
    });
  }

  /** Loads the health module (and prom-client) only now, so a bot without `health` never pays for it. */
  private async startHealth(options: NonNullable<BotOptions['health']>): Promise<void> {
    const { startHealth } = await import('../health/bot-health.js');
    this.health = await startHealth({
      options,
      telemetry: this.telemetry,
      rest: this.rest,
      clock: this.clock,
      log: this.log,
      pending: () => this.queue.size,
      inFlight: () => this.dispatcher.inFlight,
    });
    if (this.replicas) this.health.reportReplicas(this.replicas);
  }

  /** Counts the bot as started: starts the plugins and says so. */
  private async running(log: Logger, facts: Record<string, unknown>): Promise<void> {
    this.currentState = 'running';
    for (const plugin of this.plugins) await plugin.onStart?.(this);
    log.info(facts, 'bot started');
  }

  /** Loads and connects the replicas' adapter (its bucket is named by a hash of the API URL and token). */
  private async connectReplica(scale: ScaleSlot): Promise<void> {
    this.adapter = await scale.resolve(this.log);
    const credential = createHash('sha256')
      .update(`${this.options.apiUrl}\n${this.options.token}`)
      .digest('hex')
      .slice(0, 16);
    await this.adapter.connect({ apiUrl: this.options.apiUrl, credential, log: this.log });
    // The adapter knows the replica's role; a source the author reported stays theirs.
    const status = this.adapter.status?.bind(this.adapter);
    if (!this.replicas && status) this.reportReplicas(status);
  }

  /** Joins the replicas through the adapter: it decides which events this process handles. */
  private async startReplica(
    scale: ScaleSlot,
    adapter: ScaleAdapter,
    startedAt: number,
    log: Logger,
    requestOptions: { requestId: string; logger: Logger },
  ): Promise<CommandSyncPlan | undefined> {
    const factory = this.options.gateway ?? createGateway;
    return startReplica({
      adapter,
      app: this.app,
      apiUrl: this.options.apiUrl,
      commands: [...this.commands],
      commandSync: this.options.commandSync,
      queue: this.queue,
      dispatcher: this.dispatcher,
      telemetry: this.telemetry,
      rest: this.rest,
      orderBy: this.options.orderBy,
      backfillLimit: this.options.backfillLimit,
      startedAt,
      log: this.log,
      startLog: log,
      requestOptions,
      openGateway: (lastEventId) => {
        const gateway = factory({
          token: this.options.token,
          baseUrl: this.options.apiUrl,
          logger: this.log,
          lastEventId,
          fetch: rateLimitedFetch(scale.rateLimit),
        });
        // The replica that reads the gateway is ready while it is connected; the others by `reportReplicas`.
        this.health?.watch(gateway, () => lastEventId);
        return gateway;
      },
      gatewayFailed: (error) => this.onGatewayError(error),
    });
  }

  /** The stored resume point, said in the log: where the bot resumes, or that it starts from now. */
  private async loadPosition(key: PositionKey, log: Logger): Promise<Position | undefined> {
    if (!this.positions) {
      log.warn(
        'position: false: no resume point is kept, so events that arrive while the bot is down are lost. ' +
          'Remove the option to keep one (in BOARDBOT_STATE_DIR, default .boardbot/).',
      );
      return undefined;
    }
    const position = await this.positions.load(key);
    const store = this.positions.description;
    if (position?.eventId === undefined) log.info({ store }, 'no resume point stored: starting from the live stream');
    else log.info({ store, last_event_id: position.eventId }, 'resuming after the stored position');
    return position;
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
    this.log.info({ pending: this.queue.size }, 'stopping: gateway closed, waiting for handlers');
    await this.gateway?.close();
    await this.adapter?.pause().catch((error: unknown) => this.log.warn({ err: error }, 'the replica did not pause'));
    let timer: unknown;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = this.clock.setTimeout(() => resolve(true), this.options.shutdownTimeoutMs);
    });
    const late = await Promise.race([this.queue.idle().then(() => false), timedOut]);
    this.clock.clearTimeout(timer);
    const report = late ? this.abandonWork() : NOTHING_LEFT;
    for (const plugin of this.plugins) {
      await Promise.resolve(plugin.onStop?.(this)).catch((err: unknown) =>
        this.log.error({ err, plugin: plugin.name }, 'plugin onStop failed'),
      );
    }
    await this.release();
    this.currentState = 'stopped';
    this.log.info('bot stopped');
    await flushLogger(this.log);
    return report;
  }

  /** Gives up on what is still queued or running once `shutdownTimeoutMs` passed. */
  private abandonWork(): StopReport {
    // Before anything is abandoned: what ends from now on did not finish, and the next process
    // handles it again (the last save below keeps the resume point under it).
    this.progress?.halt();
    // Queued events first: a handler freed by its abandonment must not let one of them start.
    const unhandled = this.queue.discardQueued();
    const abandoned = this.dispatcher.abandonRunning(this.options.shutdownTimeoutMs);
    this.log.warn(
      { abandoned: abandoned.length, unhandled, timeout_ms: this.options.shutdownTimeoutMs },
      'handlers still running at shutdown',
    );
    return { abandoned: abandoned.map((run) => ({ handler: run.handler, eventId: run.eventId })), unhandled };
  }

  private async release(): Promise<void> {
    this.disposeSignals?.();
    this.disposeSignals = undefined;
    await this.gateway?.close().catch(() => {});
    // The last resume point: what finished is not handled again by the next process.
    if (this.keeper) {
      await this.keeper.flush();
      this.keeper.stop();
    }
    await this.positions?.close?.().catch(() => {});
    await this.health?.close();
    this.health = undefined;
    await this.adapter
      ?.close()
      .catch((error: unknown) => this.log.warn({ err: error }, 'the replica did not leave cleanly'));
    await this.services
      .find(SESSION_STORE)
      ?.close?.()
      .catch(() => {});
    // A client the caller gave stays theirs.
    if (!this.options.rest) await this.rest.close().catch(() => {});
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
