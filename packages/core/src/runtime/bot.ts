import { randomUUID } from 'node:crypto';
import type { App, CommandDefinition, Logger, ReadyEvent } from '@boardbot/protocol';
import { assertValidCommands } from '../commands/derive-commands.js';
import type { CommandSyncPlan } from '../commands/plan.js';
import { syncCommands } from '../commands/sync.js';
import { Container } from '../di/container.js';
import { type BotEvent, Dispatcher } from '../dispatch/dispatcher.js';
import { KeyedQueue } from '../dispatch/keyed-queue.js';
import type { Middleware } from '../dispatch/middleware.js';
import { buildRoutes } from '../dispatch/routes.js';
import { BotStateError, InvalidConfigError } from '../errors.js';
import { createLogger, flushLogger } from '../logging/create-logger.js';
import { exploreHandler } from '../metadata/explorer.js';
import { collectMissedMessages } from './backfill.js';
import { createGateway, createRest } from './clients.js';
import { type Clock, systemClock } from './clock.js';
import { BOT_EXIT_CODES, exitCodeAfterStop, type StopReport } from './exit-codes.js';
import { MessageMarks } from './message-marks.js';
import { type BotOptions, DEFAULT_BOT_OPTIONS } from './options.js';
import type { BotGateway, BotRest } from './ports.js';
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
  private readonly dispatcher: Dispatcher;
  private readonly queue: KeyedQueue;
  private readonly marks = new MessageMarks();
  private currentState: BotState = 'idle';
  private currentApp: App | undefined;
  private gateway: BotGateway | undefined;
  private disposeSignals: (() => void) | undefined;
  private stopping: Promise<StopReport> | undefined;
  private startedAt = 0;

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
      ...defined,
    } as BotOptions & typeof DEFAULT_BOT_OPTIONS;
    if (!(this.options.concurrency >= 1)) throw new InvalidConfigError('concurrency must be at least 1');
    if (this.options.exhaustedInteraction !== 'error' && this.options.exhaustedInteraction !== 'send') {
      throw new InvalidConfigError("exhaustedInteraction must be 'error' (the default) or 'send'");
    }
    this.clock = options.clock ?? systemClock;
    this.log = createLogger(options.logger);
    const described = options.handlers.map((h) => exploreHandler(h));
    const commands = described.flatMap((d) => (d.command ? [d.command] : []));
    assertValidCommands(commands);
    this.commands = commands.map((c) => c.definition);
    const routes = buildRoutes(described, new Container(this.options.providers));
    this.rest = options.rest ?? createRest({ token: options.token, baseUrl: this.options.apiUrl, logger: this.log });
    this.dispatcher = new Dispatcher({
      routes,
      middleware: this.middleware,
      rest: this.rest,
      app: () => this.app,
      log: this.log,
      clock: this.clock,
      handlerTimeoutMs: this.options.handlerTimeoutMs,
      errorReply: this.options.errorReply,
      onError: options.onError,
      exhaustedInteraction: this.options.exhaustedInteraction,
    });
    this.queue = new KeyedQueue(this.options.concurrency, (error) => this.log.error({ err: error }, 'dispatch failed'));
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

  /** Resolves once every received event has been handled (for tests and harnesses). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Adds middleware around every command and message handler (after guards and cooldowns).
   * @param middleware - see {@link Middleware}
   */
  use(middleware: Middleware): this {
    this.middleware.push(middleware);
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
    const correlationId = randomUUID();
    const log = this.log.child({ correlation_id: correlationId, phase: 'start' });
    const requestOptions = { requestId: correlationId, logger: log };
    try {
      this.currentApp = await this.rest.getApp(requestOptions);
      log.info({ app_id: this.currentApp.id, bot_user_id: this.currentApp.bot_user_id }, 'running as app');
      const plan = await syncCommands(this.rest, [...this.commands], this.options.commandSync, log, requestOptions);
      this.startedAt = this.clock.now();
      const gateway = (this.options.gateway ?? createGateway)({
        token: this.options.token,
        baseUrl: this.options.apiUrl,
        logger: this.log,
      });
      this.gateway = gateway;
      gateway.on('dispatch', (event) => this.receive(event));
      gateway.on('gap', (info) => void this.backfill(info.ready));
      gateway.on('error', (error) => this.onGatewayError(error));
      const ready = await gateway.connect();
      if (this.options.handleSignals) {
        this.disposeSignals = handleShutdownSignals(() => this.stop().then(exitCodeAfterStop), {
          source: this.options.signals ?? process,
          exit: (code) => this.exitProcess(code),
          log: this.log,
        });
      }
      this.currentState = 'running';
      log.info({ boards: ready.board_ids.length, commands: this.commands.length }, 'bot started');
      return plan;
    } catch (error) {
      log.error({ err: error }, 'start failed');
      await this.release();
      this.currentState = 'stopped';
      throw error;
    }
  }

  /**
   * Stops gracefully: closes the gateway (no new events), waits up to `shutdownTimeoutMs` for the
   * queued and running handlers, then closes the REST client and flushes the log. Handlers still
   * running then are abandoned (their `ctx.signal` aborted, their writes dropped, each logged by
   * name) and events not started are dropped; the report says which. Safe to call twice; the
   * second call waits for the first.
   *
   * @returns what was left undone (nothing, after a clean stop)
   */
  stop(): Promise<StopReport> {
    if (this.currentState === 'idle') {
      this.currentState = 'stopped';
      return this.release().then(() => NOTHING_LEFT);
    }
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<StopReport> {
    this.currentState = 'stopping';
    this.log.info({ pending: this.queue.size }, 'stopping: gateway closed, waiting for handlers');
    await this.gateway?.close();
    let timer: unknown;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = this.clock.setTimeout(() => resolve(true), this.options.shutdownTimeoutMs);
    });
    const late = await Promise.race([this.queue.idle().then(() => false), timedOut]);
    this.clock.clearTimeout(timer);
    const report = late ? this.abandonWork() : NOTHING_LEFT;
    await this.release();
    this.currentState = 'stopped';
    this.log.info('bot stopped');
    await flushLogger(this.log);
    return report;
  }

  /** Gives up on what is still queued or running once `shutdownTimeoutMs` passed. */
  private abandonWork(): StopReport {
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
    // A client the caller gave stays theirs.
    if (!this.options.rest) await this.rest.close().catch(() => {});
  }

  private receive(event: BotEvent): void {
    const data = event.data as { message?: { id: string }; interaction?: { id: string } } | undefined;
    if (event.name === 'message.create' && data?.message) {
      if (!this.marks.record(data.message as Parameters<MessageMarks['record']>[0])) return;
    }
    // Events of one message or interaction keep their order; others run side by side.
    const key = data?.message?.id ?? data?.interaction?.id;
    this.queue.push(key, () => this.dispatcher.dispatch(event));
  }

  private async backfill(ready: ReadyEvent): Promise<void> {
    const correlationId = randomUUID();
    const log = this.log.child({ correlation_id: correlationId, phase: 'backfill' });
    try {
      const missed = await collectMissedMessages(
        this.rest,
        ready.board_ids,
        { lastSeq: this.marks.lastSeq, since: this.startedAt },
        { limit: this.options.backfillLimit, log, requestOptions: { requestId: correlationId, logger: log } },
      );
      log.info({ messages: missed.length }, 'gateway gap: dispatching missed messages');
      for (const message of missed) {
        this.receive({
          name: 'message.create',
          id: `backfill:${message.id}`,
          data: { type: 'message.create', message },
        });
      }
    } catch (error) {
      log.error({ err: error }, 'backfill after a gateway gap failed: missed messages are not handled');
    }
  }

  private onGatewayError(error: Error): void {
    if ((error as { fatal?: unknown }).fatal !== true) {
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
