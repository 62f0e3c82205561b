import { randomUUID } from 'node:crypto';
import type { Logger, Message, ReadyEvent } from '@boardbot/protocol';
import type { BotEvent, EventOrigin } from '../../kernel/event.js';
import type { BotRest } from '../../kernel/ports.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import { collectMissedMessages } from './backfill.js';
import type { Backpressure } from './backpressure.js';
import type { BackfillPlace, EventIntake, IntakeSink } from './intake-sink.js';
import { MessageMarks } from './message-marks.js';

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

  /**
   * @param sink - where accepted events go
   * @param deps - the REST client for backfills, the logger, the backfill's bound, the telemetry
   */
  constructor(
    private readonly sink: IntakeSink,
    private readonly deps: IntakeDeps,
  ) {}

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
    void this.take(event);
  }

  /** Takes nothing more: a backfill still running delivers nothing (its gateway was closed). */
  close(): void {
    this.closed = true;
    this.held = undefined;
    this.deps.pressure?.release();
  }

  /** Passes an event on, counted toward the bound until the sink is done with it. */
  private take(event: BotEvent, place?: BackfillPlace): Promise<void> {
    const pressure = this.deps.pressure;
    pressure?.add();
    const taken = this.sink.take(event, place);
    return pressure ? taken.finally(() => pressure.done()) : taken;
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
          handled = Promise.all(fresh.map((message, i) => this.take(backfillEvent(message), { cursor, index: i + 1 })));
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
