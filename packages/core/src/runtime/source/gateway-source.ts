import type { Logger, Message } from '@boardbot/protocol';
import type { Clock } from '../../kernel/clock.js';
import type { BotEvent, EventOrigin } from '../../kernel/event.js';
import type { BotGateway } from '../../kernel/ports.js';
import type { BackfillMarks } from '../intake/backfill.js';
import type { BackfillPlace, EventIntake, IntakeSink } from '../intake/intake-sink.js';
import { PositionKeeper } from '../position/position-keeper.js';
import type { Position, PositionKey, PositionStore } from '../position/position-store.js';
import { Progress, type Ticket } from '../position/progress.js';
import type { BotEventSource, SourceHost } from './event-source.js';

/** Where the gateway source keeps its resume point, and how often it saves it. */
export interface GatewaySourceOptions {
  /** Undefined with `position: false`, which keeps none. */
  positions: PositionStore | undefined;
  /** `positionFlushMs`. */
  flushMs: number;
  clock: Clock;
}

/**
 * The event source of a bot that handles every event itself (the default): the platform's gateway,
 * resumed after the stored resume point and fed through the bot's intake, whose sink it is. Each
 * event joins the {@link Progress} line in arrival order, so the resume point passes it only once its
 * handlers finished; it is saved in batches, and once more when the source closes.
 */
export class GatewaySource implements BotEventSource, IntakeSink {
  readonly description = 'gateway';
  readonly gapMessage = 'gateway gap: dispatching missed messages';
  private host!: SourceHost;
  private gateway: BotGateway | undefined;
  private progress: Progress | undefined;
  private keeper: PositionKeeper | undefined;
  private since = 0;
  // Without a Progress, where a gap's backfill starts on each board: the highest seq received.
  private readonly received = new Map<string, number>();
  /** The resume point's tickets of the messages set aside, by message id, until they are taken again. */
  private readonly aside = new Map<string, Ticket | undefined>();
  private intake: EventIntake | undefined;

  /** @param options - the position store and how often it is saved */
  constructor(private readonly options: GatewaySourceOptions) {}

  /** Loads the resume point, opens the gateway after it and resolves with its first `ready`. */
  async start(host: SourceHost): Promise<{ boards: number }> {
    this.host = host;
    const { positions, flushMs, clock } = this.options;
    const key: PositionKey = { apiUrl: host.apiUrl, appId: host.appId };
    const position = await this.load(key, host.startLog);
    if (positions) {
      this.progress = new Progress(position);
      this.keeper = new PositionKeeper(positions, key, this.progress, { flushMs, clock, log: host.log });
    }
    this.since = position?.savedAt ?? host.startedAt;
    const intake = host.intake(this);
    this.intake = intake;
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

  /**
   * Closes the gateway (the one place a bot's gateway closes) and the intake: no new events, and the
   * messages set aside stay so, before the resume point, for the next process to read again.
   */
  async pause(): Promise<void> {
    await this.gateway?.close().catch(() => {});
    this.intake?.close();
  }

  /** Freezes the resume point: what ends from now on did not finish, so the next process handles it. */
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

  backfillMarks(): BackfillMarks {
    return { lastSeq: this.progress?.boards ?? this.received, since: this.since };
  }

  handled(message: Message): boolean {
    return this.progress?.handled(message.board_id, message.seq) ?? false;
  }

  ready(event: BotEvent): void {
    // Its id is the stream's cursor: the resume point stands there once everything before it finished
    // (after a gap: once the missed messages are handled).
    this.finish(this.begin(event, 'live'));
    void this.host.deliver(event);
  }

  skip(event: BotEvent): void {
    // Its message's seq is not registered again: it was handled already, or is in flight as received.
    this.finish(this.begin(event, 'live', false));
  }

  take(event: BotEvent, place?: BackfillPlace): Promise<void> {
    const id = messageIdOf(event);
    // A message set aside and read back over REST has its ticket already, from its place in the line.
    const aside = this.aside.size > 0 && this.aside.has(id);
    const origin = place === undefined && !aside ? 'live' : 'backfill';
    const ticket = aside ? this.unsetAside(id) : this.begin(event, origin);
    // Abandoned at stop (a burst still held): not done, the next process handles it.
    const delivered = this.host.deliver(event, place, origin);
    return delivered.then((outcome) => (outcome.abandoned ? undefined : this.finish(ticket)));
  }

  holdGap(): () => void {
    const barrier = this.progress?.begin(undefined);
    return () => this.finish(barrier);
  }

  setAside(event: BotEvent): boolean {
    if (!this.host.handles(event)) return false;
    // Registered now, at its place in the line: the resume point stays before it until it is taken.
    this.aside.set(messageIdOf(event), this.begin(event, 'live'));
    return true;
  }

  asideGone(messageId: string): void {
    this.finish(this.unsetAside(messageId));
  }

  /** The ticket a message set aside got, now that it is taken again (or gone). */
  private unsetAside(messageId: string): Ticket | undefined {
    const ticket = this.aside.get(messageId);
    this.aside.delete(messageId);
    return ticket;
  }

  /** Registers work with the Progress, in arrival order; without one, only notes the message's seq. */
  private begin(event: BotEvent, origin: EventOrigin, withSeq = true): Ticket | undefined {
    const message = withSeq && !event.unknown && event.name === 'message.create' ? event.data.message : undefined;
    // A message read back after a gap has no gateway id: the resume point does not move by it.
    const eventId = event.id === '' || origin !== 'live' ? undefined : event.id;
    if (this.progress) return this.progress.begin(eventId, message && { id: message.board_id, seq: message.seq });
    if (message) this.received.set(message.board_id, Math.max(message.seq, this.received.get(message.board_id) ?? 0));
    return undefined;
  }

  /** Marks work finished, so the resume point may move past it. */
  private finish(ticket: Ticket | undefined): void {
    if (ticket === undefined) return;
    this.progress?.finish(ticket);
    this.keeper?.changed();
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

/** The id of a `message.create`'s message; `''` for any other event. */
function messageIdOf(event: BotEvent): string {
  return !event.unknown && event.name === 'message.create' ? event.data.message.id : '';
}
