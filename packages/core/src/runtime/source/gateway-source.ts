import type { Logger } from '@boardbot/protocol';
import type { Clock } from '../../kernel/clock.js';
import type { BotGateway } from '../../kernel/ports.js';
import { PositionKeeper } from '../position/position-keeper.js';
import type { Position, PositionKey, PositionStore } from '../position/position-store.js';
import { Progress } from '../position/progress.js';
import type { BotEventSource, SourceHost } from './event-source.js';
import { ProgressSink } from './progress-sink.js';

/** What the gateway source keeps its resume point with. */
export interface GatewaySourceOptions {
  /** Where the resume point is kept; undefined with `position: false`, which keeps none. */
  positions: PositionStore | undefined;
  /** Longest time between a handler finishing and the resume point being saved (`positionFlushMs`). */
  flushMs: number;
  clock: Clock;
}

/**
 * The event source of a bot that handles every event itself (the default): the platform's gateway,
 * resumed after the stored resume point, fed through the bot's intake; the resume point moves as the
 * handlers finish and is saved in batches, and once more when the source closes.
 */
export class GatewaySource implements BotEventSource {
  readonly description = 'gateway';
  private gateway: BotGateway | undefined;
  private progress: Progress | undefined;
  private keeper: PositionKeeper | undefined;

  /** @param options - the position store and how often it is saved */
  constructor(private readonly options: GatewaySourceOptions) {}

  /** Loads the resume point, opens the gateway after it and resolves with its first `ready`. */
  async start(host: SourceHost): Promise<{ boards: number }> {
    const { positions } = this.options;
    const key: PositionKey = { apiUrl: host.apiUrl, appId: host.appId };
    const position = await this.load(key, host.startLog);
    if (positions) {
      this.progress = new Progress(position);
      const { flushMs, clock } = this.options;
      this.keeper = new PositionKeeper(positions, key, this.progress, { flushMs, clock, log: host.log });
    }
    const sink = new ProgressSink(host, this.progress, this.keeper, position?.savedAt ?? host.startedAt);
    const intake = host.intake(sink);
    const gateway = host.openGateway(
      position?.eventId,
      () => host.bound.gate(),
      () => this.progress?.lastEventId,
    );
    this.gateway = gateway;
    gateway.on('dispatch', (event) => intake.receive(event));
    gateway.on('error', (error) => host.gatewayFailed(error));
    const ready = await gateway.connect();
    if (position?.eventId === undefined && this.keeper) {
      // A first start: the live stream's cursor is the resume point from now on. Stored before the
      // bot counts as started, so a crash right after cannot lose what arrives next.
      await this.keeper.flush();
      host.startLog.info({ last_event_id: this.progress?.lastEventId }, 'resume point stored at the live stream');
    }
    return { boards: ready.board_ids.length };
  }

  /** Closes the gateway: no new events. */
  async pause(): Promise<void> {
    await this.gateway?.close().catch(() => {});
  }

  /** Freezes the resume point: what ends from now on did not finish, so the next process handles it again. */
  abandon(): void {
    this.progress?.halt();
  }

  /** Saves the resume point a last time (what finished is not handled again), then closes its store. */
  async close(): Promise<void> {
    if (this.keeper) {
      await this.keeper.flush();
      this.keeper.stop();
    }
    await this.options.positions?.close?.().catch(() => {});
  }

  /** The stored resume point, said in the log: where the bot resumes, or that it starts from now. */
  private async load(key: PositionKey, log: Logger): Promise<Position | undefined> {
    const { positions } = this.options;
    if (!positions) {
      log.warn(
        'position: false: no resume point is kept, so events that arrive while the bot is down are lost. ' +
          'Remove the option to keep one (in BOARDBOT_STATE_DIR, default .boardbot/).',
      );
      return undefined;
    }
    const position = await positions.load(key);
    const store = positions.description;
    if (position?.eventId === undefined) log.info({ store }, 'no resume point stored: starting from the live stream');
    else log.info({ store, last_event_id: position.eventId }, 'resuming after the stored position');
    return position;
  }
}
