import { randomUUID } from 'node:crypto';
import type { Logger, Message, ReadyEvent } from '@boardbot/protocol';
import type { Clock } from '../../kernel/clock.js';
import type { BotEvent, EventOrigin } from '../../kernel/event.js';
import type { BotRest } from '../../kernel/ports.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import { collectMissedMessages } from './backfill.js';
import type { Backpressure } from './backpressure.js';
import { BoardShares, boardOf } from './board-shares.js';
import type { BackfillPlace, EventIntake, IntakeSink } from './intake-sink.js';
import { MessageMarks } from './message-marks.js';
import { ReadBacks } from './read-backs.js';

/** What the intake works with, besides its sink. */
export interface IntakeDeps {
  rest: BotRest;
  log: Logger;
  /** Most messages read back per board after a gap (`backfillLimit`). */
  backfillLimit: number;
  /** Counts what a backfill read back. */
  telemetry: Telemetry;
  /** Counts the events held (taken and not done, or held behind a backfill): the intake's bound. */
  pressure?: Backpressure | undefined;
  /**
   * Most events one board holds while the intake holds half its bound or more (with `pressure` and a
   * sink that sets aside): its new messages beyond it are set aside and read back later.
   * @defaultValue no share
   */
  boardShare?: number | undefined;
  /** Times a read-back of set-aside messages that failed is tried again. */
  clock: Clock;
  /** Runs a read-back of set-aside messages (as a worker of the bot's queue); none: no share. */
  schedule?: ((task: () => Promise<void>) => Promise<void>) | undefined;
}

/**
 * Where gateway events enter the runtime, whatever handles them next: one process dispatches them,
 * the reader of a set of replicas appends them to Redis Streams (see {@link IntakeSink}). A message
 * handled already (at or below its board's stored mark) or seen already (live and read back by a
 * backfill) is dropped. A `ready` frame that reports a gap holds the live events back while the missed
 * messages are read over REST, so each board is still handled in order: the missed ones, as
 * `message.create` events with `backfill:` ids, then the live ones.
 */
export class Intake implements EventIntake {
  private readonly marks = new MessageMarks();
  private held: BotEvent[] | undefined;
  private closed = false;
  private readonly shares: BoardShares | undefined;
  private readonly readBacks: ReadBacks | undefined;
  /** Set-aside messages past the memory bound, each counted toward the intake's bound meanwhile. */
  private overBound = 0;

  /**
   * @param sink - where accepted events go
   * @param deps - the REST client for backfills, the logger, the backfill's bound, the telemetry
   */
  constructor(
    private readonly sink: IntakeSink,
    private readonly deps: IntakeDeps,
  ) {
    const { pressure, boardShare, schedule } = deps;
    if (pressure && boardShare !== undefined && schedule && sink.setAside && sink.asideGone) {
      this.shares = new BoardShares(boardShare, pressure.low);
      this.readBacks = new ReadBacks(
        this.shares,
        { ...deps, schedule },
        {
          setAside: (event) => sink.setAside?.(event) ?? false,
          gone: (id) => {
            this.readBack();
            sink.asideGone?.(id);
          },
          take: (message) => {
            this.readBack();
            void this.take(backfillEvent(message));
          },
          closed: () => this.closed,
        },
      );
    }
  }

  /** Takes one gateway event, in the order the gateway delivered them. */
  receive(event: BotEvent): void {
    if (this.closed) return;
    if (this.held) {
      this.held.push(event);
      this.deps.pressure?.add();
      return;
    }
    if (!event.unknown && event.name === 'ready') {
      if (event.data.gap === true) this.fillGap(event.id, event.data);
      this.sink.ready(event);
      return;
    }
    const message = !event.unknown && event.name === 'message.create' ? event.data.message : undefined;
    if (message && this.seen(message)) {
      this.sink.skip(event);
      return;
    }
    if (message && this.setAside(event, message)) return;
    void this.take(event);
  }

  /** Takes nothing more: a backfill still running delivers nothing (its gateway was closed). */
  close(): void {
    this.closed = true;
    this.held = undefined;
    this.readBacks?.close();
    this.deps.pressure?.release();
  }

  /** Passes an event on, counted toward the bound (and its board's share) until the sink is done with it. */
  private take(event: BotEvent, place?: BackfillPlace): Promise<void> {
    const pressure = this.deps.pressure;
    const shares = this.shares;
    const board = shares && boardOf(event);
    pressure?.add();
    if (board !== undefined) shares?.add(board);
    const taken = this.sink.take(event, place);
    if (!pressure) return taken;
    return taken.finally(() => {
      pressure.done();
      if (board !== undefined && shares?.done(board)) void this.readBacks?.read(board);
    });
  }

  /**
   * Sets a message aside when its board is over its share. What is set aside is memory too: past
   * {@link ASIDE_PER_BOUND} times the bound, each message set aside also counts toward the bound, so
   * a flood that goes on pauses the gateway again instead of growing the heap (until read-backs
   * bring the count down).
   * @returns whether it was set aside
   */
  private setAside(event: BotEvent, message: Message): boolean {
    const { pressure } = this.deps;
    if (!this.shares?.full(message.board_id, pressure?.count ?? 0) || !this.readBacks?.setAside(event, message)) {
      return false;
    }
    if (pressure && (this.shares?.asideCount ?? 0) > pressure.high * ASIDE_PER_BOUND) {
      this.overBound++;
      pressure.add();
    }
    return true;
  }

  /** A set-aside message was read back (taken, or found deleted): one counted toward the bound is let go. */
  private readBack(): void {
    if (this.overBound === 0) return;
    this.overBound--;
    this.deps.pressure?.done();
  }

  /** Whether a message was handled before (at or below the stored mark), or received already. */
  private seen(message: Message): boolean {
    return this.sink.handled(message) || !this.marks.record(message);
  }

  private fillGap(cursor: string, ready: ReadyEvent): void {
    this.held = [];
    const release = this.sink.holdGap();
    const correlationId = randomUUID();
    const log = this.deps.log.child({ correlation_id: correlationId, phase: 'backfill' });
    let handled: Promise<unknown> = Promise.resolve();
    void collectMissedMessages(this.deps.rest, ready.board_ids, this.sink.backfillMarks(), {
      limit: this.deps.backfillLimit,
      log,
      requestOptions: { requestId: correlationId, logger: log },
    })
      .then(
        (missed) => {
          if (this.closed) return;
          log.info({ messages: missed.length, boards: ready.board_ids.length }, this.sink.gapMessage);
          this.deps.telemetry.metrics?.backfilled(missed.length);
          const fresh = missed.filter((message) => !this.seen(message));
          // A board over its share sets its missed messages aside too, behind those set aside before.
          handled = Promise.all(
            fresh.map((message, i) => {
              const event = backfillEvent(message);
              if (this.setAside(event, message)) return undefined;
              return this.take(event, { cursor, index: i + 1 });
            }),
          );
        },
        (error: unknown) => {
          log.error({ err: error }, 'backfill after a gateway gap failed: missed messages are not handled');
        },
      )
      .finally(() => {
        if (this.closed) return;
        // Live events go on behind the missed ones; the resume point waits until those are done.
        const held = this.held ?? [];
        this.held = undefined;
        for (const event of held) {
          this.deps.pressure?.done();
          this.receive(event);
        }
        void handled.then(release);
      });
  }
}

/** How many times the intake's bound may be set aside before set-aside messages count toward it. */
const ASIDE_PER_BOUND = 10;

/** The id prefix of a message read back over REST after a gap (for logs; its origin is `'backfill'`). */
const BACKFILL = 'backfill:';

/** A message read back over REST after a gap, as the `message.create` the gateway would have sent. */
function backfillEvent(message: Message): BotEvent {
  return { name: 'message.create', id: `${BACKFILL}${message.id}`, data: { type: 'message.create', message } };
}

/**
 * Where an event that crossed another process comes from (a replica's entry holds the event only):
 * read from the id this module gave it, the one place that makes it.
 * @param event - the event
 */
export function originOf(event: BotEvent): EventOrigin {
  return event.id.startsWith(BACKFILL) ? 'backfill' : 'live';
}
