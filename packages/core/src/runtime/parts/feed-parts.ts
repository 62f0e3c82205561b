import type { App } from '@boardbot/protocol';
import { commandSetHash } from '../../commands/sync/command-set-hash.js';
import type { CommandSyncPlan } from '../../commands/sync/plan.js';
import { syncCommands } from '../../commands/sync/sync.js';
import { BotStateError } from '../../errors.js';
import type { Assembly } from '../assemble.js';
import type { StopReport } from '../exit-codes.js';
import type { BotEventSource } from '../source/event-source.js';
import { sourceHost } from '../source/source-host.js';
import type { HealthPart } from './house-parts.js';
import type { BotPart } from './part.js';
import type { PartsHost } from './parts-host.js';

/** The app the bot runs as (`GET /app`: its own user id), and, for a replica, the replicas' shared state named by it. */
export class AppPart implements BotPart {
  readonly name = 'app';
  private read: App | undefined;

  /** @param host - the bot (its `scale` adapter, if any) */
  constructor(private readonly host: PartsHost) {}

  /** The app, once read. */
  get app(): App {
    if (!this.read) throw new BotStateError('The app is known once start() has read it.');
    return this.read;
  }

  async start(): Promise<void> {
    const { log, requestOptions } = this.host.start();
    const app = await this.host.built.rest.getApp(requestOptions);
    this.read = app;
    log.info({ app_id: app.id, bot_user_id: app.bot_user_id }, 'running as app');
    const { scale } = this.host.built;
    if (!scale) return;
    await scale.joinApp(app.id);
    log.info({ scale: scale.description }, 'running as a replica');
  }
}

/**
 * The registered commands reconciled with the handlers' (per `commandSync`); replicas sync once
 * across them, in a replica whose command set is the one to register. Ready once done.
 */
export class CommandsPart implements BotPart {
  readonly name = 'commands';
  /** The sync's plan, when a sync ran here. */
  plan: CommandSyncPlan | undefined;
  private synced = false;

  /** @param host - the bot (its `scale` adapter, if any) */
  constructor(private readonly host: PartsHost) {}

  async start(): Promise<void> {
    const { built, options } = this.host;
    const { log, requestOptions } = this.host.start();
    const sync = () => syncCommands(built.rest, [...built.commands], options.commandSync, log, requestOptions);
    this.plan =
      built.scale && options.commandSync === 'sync'
        ? await built.scale.syncCommands(commandSetHash(built.commands), sync)
        : await sync();
    this.synced = true;
  }

  ready(): boolean {
    return this.synced;
  }
}

/**
 * The bot's event source (the gateway, a replica adapter, a source given): started once the bot knows
 * its app, paused first when it stops, closed once the handlers finished. Ready while it feeds the
 * bot (`/readyz`'s `gateway`).
 */
export class SourcePart implements BotPart {
  readonly name = 'gateway';
  /** What the `bot started` line says of the source. */
  facts: Readonly<Record<string, unknown>> = {};

  /**
   * @param host - the bot
   * @param app - the app part
   * @param health - the health part: it follows the gateways the source opens
   */
  constructor(
    private readonly host: PartsHost,
    private readonly app: AppPart,
    private readonly health: HealthPart | undefined,
  ) {}

  private get source(): BotEventSource {
    return this.host.built.source;
  }

  async start(): Promise<void> {
    const { built, options } = this.host;
    const { startedAt, log } = this.host.start();
    const host = sourceHost({
      parts: built,
      options,
      appId: this.app.app.id,
      startLog: log,
      startedAt,
      watch: (gateway, resumePoint) => this.health?.health?.watch(gateway, resumePoint),
      gatewayFailed: (error) => this.host.gatewayFailed(error),
    });
    const facts = await this.source.start(host);
    this.facts = built.scale ? { replica: true } : (facts ?? {});
  }

  async stop(): Promise<void> {
    const { scale, log } = this.host.built;
    if (scale) await scale.pause().catch((error: unknown) => log.warn({ err: error }, 'the replica did not pause'));
    else await this.source.pause();
  }

  /** The stop gave up on what was left: the source records nothing more as done. */
  abandon(): void {
    this.source.abandon?.();
  }

  async close(): Promise<void> {
    // A replica adapter is closed by its own part, once the rest of the bot stopped.
    if (!this.host.built.scale) await this.source.close?.();
  }

  async ready(): Promise<boolean> {
    if (this.source.live) return this.source.live();
    return (await this.health?.health?.gatewayReady()) ?? false;
  }
}

/** What a stop that finished everything reports. */
export const NOTHING_LEFT: StopReport = { abandoned: [], unhandled: 0 };

/**
 * The dispatch: the queue and the running handlers. Its stop, once the source took no new event,
 * tells the running handlers the bot is stopping (streamed answers end, marked interrupted) and waits
 * up to `shutdownTimeoutMs` for the queued and running ones; then it gives up on what is left: the
 * source records nothing more as done (what ends from now on is handled again by the next process),
 * queued events are dropped, and running handlers are abandoned. Its report says which.
 */
export class DispatchPart implements BotPart {
  readonly name = 'dispatch';
  /** What the last stop left undone. */
  report: StopReport = NOTHING_LEFT;

  /**
   * @param built - the queue, dispatcher, clock and logger
   * @param timeoutMs - `shutdownTimeoutMs`
   * @param giveUp - tells the source that the stop gave up on what was left
   */
  constructor(
    private readonly built: Assembly,
    private readonly timeoutMs: number,
    private readonly giveUp: () => void,
  ) {}

  async stop(): Promise<void> {
    const { queue, clock, dispatcher, log } = this.built;
    const timeoutMs = this.timeoutMs;
    // Held bursts stay held (before the resume point, run by the next process); runs going finish.
    dispatcher.close();
    // Streamed answers end now, marked interrupted, within the wait below; their events stay above the
    // resume point (a stream could run for minutes, and the next start completes the answer anyway).
    dispatcher.runner.interruptRunning();
    let timer: unknown;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = clock.setTimeout(() => resolve(true), timeoutMs);
    });
    // Streams that released their slot run outside the queue: their final edits are waited for too.
    const drained = queue.idle().then(() => dispatcher.runner.settled());
    const late = await Promise.race([drained.then(() => false), timedOut]);
    clock.clearTimeout(timer);
    if (!late) return;
    this.giveUp();
    // Queued events first: a handler freed by its abandonment must not let one of them start.
    const unhandled = queue.discardQueued();
    const abandoned = dispatcher.runner.abandonRunning(timeoutMs);
    log.warn({ abandoned: abandoned.length, unhandled, timeout_ms: timeoutMs }, 'handlers still running at shutdown');
    this.report = { abandoned: abandoned.map((run) => ({ handler: run.handler, eventId: run.eventId })), unhandled };
  }
}
