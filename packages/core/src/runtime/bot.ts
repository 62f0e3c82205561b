import { randomUUID } from 'node:crypto';
import type { App, CommandDefinition, Logger } from '@boardbot/protocol';
import type {
  BroadcastBody,
  BroadcastOptions,
  BroadcastReport,
  BroadcastTarget,
} from '../broadcasts/broadcast-options.js';
import { BroadcastRuns } from '../broadcasts/broadcast-runs.js';
import type { CommandSyncPlan } from '../commands/sync/plan.js';
import { BotStateError } from '../errors.js';
import type { ReplicaStatusSource } from '../health/replica-status.js';
import { readEnvironment } from '../kernel/environment.js';
import type { GatewayFailure } from '../kernel/ports.js';
import { Services } from '../kernel/services.js';
import type { Middleware } from '../policies/middleware.js';
import { SESSION_STORE } from '../sessions/service.js';
import { type Assembly, assembleBot } from './assemble.js';
import { type BotDefinition, checkedDefinition, withOverrides } from './define-bot.js';
import { BOT_EXIT_CODES, type StopReport } from './exit-codes.js';
import type { HostedBot } from './hosted.js';
import type { BotOptions } from './options.js';
import { botParts, type CoreParts } from './parts/bot-parts.js';
import { NOTHING_LEFT } from './parts/feed-parts.js';
import type { PartList } from './parts/part.js';
import { PartRunner } from './parts/part-runner.js';
import type { StartContext } from './parts/parts-host.js';
import { type ResolvedBotOptions, resolveBotOptions } from './resolve-options.js';

/** Where a bot is in its life. A stopped bot cannot start again: create a new one. */
export type BotState = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped';

/**
 * A running bot: its parts (the gateway, the dispatch, the REST client...), started in order and
 * stopped in reverse. Create it with `createBot`, from a definition (`defineBot`) or options;
 * everything that can be checked without I/O (decorators, command set, providers) is checked there.
 */
export class Bot {
  /** The command set the handlers declare, as it is registered. */
  readonly commands: readonly CommandDefinition[];
  /** The bot's root logger. */
  readonly log: Logger;
  /** The bot's services (its session store...), which handlers reach through their context. */
  readonly services = new Services();
  /**
   * The bot's parts, in the order they start: add one of your own (a database, a second source),
   * replace or remove one, also while the bot runs. See docs/architecture.md, "Parts".
   */
  readonly parts: PartList;
  private readonly options: ResolvedBotOptions;
  private readonly built: Assembly;
  private readonly runner: PartRunner;
  private readonly core: CoreParts;
  /** How many of the middleware came from `use()`: they run before the plugins' (which come last). */
  private ownMiddleware = 0;
  private currentState: BotState = 'idle';
  private current: StartContext | undefined;
  private startEnded: Promise<void> = Promise.resolve();
  private stopping: Promise<StopReport> | undefined;
  private replicas: ReplicaStatusSource | undefined;
  private readonly broadcasts: BroadcastRuns;

  /**
   * @param definition - the bot's definition
   * @param overrides - options given when the bot is created (see `createBot`)
   * @param hosted - what a host of apps shares with the bot (`createHost`) @defaultValue none
   */
  constructor(
    definition: BotDefinition,
    overrides: Partial<BotOptions> = {},
    private readonly hosted: HostedBot = {},
  ) {
    const defined = withOverrides(definition, overrides);
    this.options = resolveBotOptions(defined.options as BotOptions, readEnvironment());
    this.built = assembleBot(this.options, checkedDefinition(defined.definition), {
      app: () => this.app,
      running: () => this.currentState === 'running',
      setup: (plugin) => plugin.setup?.(this),
      services: this.services,
      dispatcher: hosted.dispatcher,
    });
    this.log = this.built.log;
    const store = () => this.services.get(SESSION_STORE);
    this.broadcasts = new BroadcastRuns({ ...this.built, store, app: () => this.app, state: () => this.currentState });
    this.commands = this.built.commands;
    // The adapter knows the replica's role; a source the author reports stays theirs.
    const { scale } = this.built;
    this.replicas = scale?.status?.bind(scale);
    const { list, core } = botParts({
      options: this.options,
      built: this.built,
      hub: hosted.health,
      plugins: this,
      start: () => this.current as StartContext,
      startEnded: () => this.startEnded,
      stopping: () => this.currentState === 'stopping',
      running: () => {
        this.currentState = 'running';
      },
      replicas: () => this.replicas,
      checks: async () => ({ ...(await this.runner.readiness()), running: !this.stopping }),
      gatewayFailed: (error) => this.onGatewayError(error),
      stop: () => this.stop(),
      exit: (code) => this.exitProcess(code),
    });
    this.core = core;
    this.runner = new PartRunner(list, this.log);
    this.parts = this.runner;
  }

  /** Where the bot is in its life. */
  get state(): BotState {
    return this.currentState;
  }

  /** The app the bot runs as; known once `start()` read it. */
  get app(): App {
    return this.core.app.app;
  }

  /** Events queued or being handled. */
  get pending(): number {
    return this.built.queue.size;
  }

  /** Where `/healthz`, `/readyz` and `/metrics` answer (`http://host:port`), once started with `health`. */
  get healthUrl(): string | undefined {
    return this.core.health.health?.url;
  }

  /**
   * Feeds the metrics and readiness with a replica's status (for a replica adapter such as
   * `@boardbot/redis`, which the bot reports by itself): its pending and dead-lettered events, and
   * whether it consumes (a replica that does not hold the gateway is ready when it does).
   * @param source - read at each scrape and each `/readyz`
   */
  reportReplicas(source: ReplicaStatusSource): this {
    this.replicas = source;
    this.core.health.health?.reportReplicas(source);
    return this;
  }

  /** Resolves once every received event has been handled (for tests and harnesses). */
  idle(): Promise<void> {
    // Streams that released their slot run outside the queue.
    return this.built.queue.idle().then(() => this.built.dispatcher.runner.settled());
  }

  /**
   * Sends one message to many boards within the app's rate limit, sharing it fairly with the
   * handlers' answers; resumable: called again with the same `id` (after a crash, a cancellation or
   * a stop), it goes on where it stopped and each board gets the message once. See docs/broadcasts.md.
   * @param target - board ids, `'all'`, or a filter over the app's boards
   * @param body - the message (`content`, `embeds`)
   * @param options - its `id`, and a signal, a progress callback
   * @returns what this call did; `status: 'cancelled'` when the signal or `stop()` ended it first
   * @example await bot.broadcast('all', { content: 'Maintenance at 22:00' }, { id: 'maintenance-0612' });
   */
  broadcast(target: BroadcastTarget, body: BroadcastBody, options: BroadcastOptions): Promise<BroadcastReport> {
    return this.broadcasts.run(target, body, options);
  }

  /**
   * Adds middleware around every command and message handler (after guards and cooldowns), in the
   * order of the calls, before the plugins' middleware.
   * @param middleware - see {@link Middleware}
   */
  use(middleware: Middleware): this {
    // In place: the middleware stage holds this very array. The plugins' middleware stays after the bot's own.
    this.built.middleware.splice(this.ownMiddleware++, 0, middleware);
    this.built.dispatcher.runner.replan();
    return this;
  }

  /**
   * Starts the bot's parts in order: reads the app, reconciles the commands (per `commandSync`),
   * opens the event source (the gateway) and starts dispatching. Rejects (and leaves nothing open)
   * when any part fails to start.
   *
   * @returns the sync plan, or undefined with `commandSync: 'off'`
   */
  async start(): Promise<CommandSyncPlan | undefined> {
    if (this.currentState !== 'idle') throw new BotStateError(`start() called while the bot is ${this.currentState}`);
    this.currentState = 'starting';
    const correlationId = randomUUID();
    const log = this.log.child({ correlation_id: correlationId, phase: 'start' });
    this.current = {
      startedAt: this.built.clock.now(),
      log,
      requestOptions: { requestId: correlationId, logger: log },
    };
    let ended!: () => void;
    this.startEnded = new Promise<void>((resolve) => (ended = resolve));
    try {
      await this.runner.start();
      log.info({ ...this.core.source.facts, commands: this.commands.length }, 'bot started');
      return this.core.commands.plan;
    } catch (error) {
      log.error({ err: error }, 'start failed');
      await this.runner.stop();
      this.currentState = 'stopped';
      throw error;
    } finally {
      ended();
    }
  }

  /**
   * Stops gracefully: the event source takes no new event, the queued and running handlers get up to
   * `shutdownTimeoutMs`, then the parts close in reverse (the REST client last, then the log is
   * flushed). Handlers still running then are abandoned (their `ctx.signal` aborted, their writes
   * dropped, each logged by name) and events not started are dropped; the report says which.
   * Neither counts as handled: the resume point stays below them, so the next process handles them
   * again. Safe to call twice; the second call waits for the first.
   *
   * @returns what was left undone (nothing, after a clean stop)
   */
  stop(): Promise<StopReport> {
    if (this.currentState === 'idle') {
      this.currentState = 'stopped';
      return this.runner.stop().then(() => NOTHING_LEFT);
    }
    // A start that failed released everything already.
    if (this.currentState === 'stopped' && !this.stopping) return Promise.resolve(NOTHING_LEFT);
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<StopReport> {
    this.currentState = 'stopping';
    this.log.info({ pending: this.built.queue.size }, 'stopping: gateway closed, waiting for handlers');
    // Broadcasts are cancelled at once (each resumable: called again, it goes on where it stopped),
    // and the parts begin to stop in the same turn, so no change to them slips in between.
    const cancelled = this.broadcasts.stop();
    await this.runner.stop();
    await cancelled;
    this.currentState = 'stopped';
    return this.core.dispatch.report;
  }

  private onGatewayError(error: GatewayFailure): void {
    if (error.fatal !== true) {
      this.log.warn({ err: error }, 'gateway reported an error');
      return;
    }
    // 401/403: the token was revoked or the app removed; reconnecting cannot help.
    this.log.error({ err: error }, 'gateway closed for good: stopping the bot');
    if (this.currentState !== 'running') return;
    this.hosted.failed?.(error);
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
