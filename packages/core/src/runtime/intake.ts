import { randomUUID } from 'node:crypto';
import type { Logger, Message, ReadyEvent } from '@boardbot/protocol';
import type { BotEvent, Dispatcher } from '../dispatch/dispatcher.js';
import type { KeyedQueue } from '../dispatch/keyed-queue.js';
import { type OrderBy, orderingKey } from '../dispatch/ordering.js';
import type { BotRest } from '../kernel/ports.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { collectMissedMessages } from './backfill.js';
import { MessageMarks } from './message-marks.js';
import type { PositionKeeper } from './position/position-keeper.js';
import type { Progress, Ticket } from './position/progress.js';

/** What the intake works with. */
export interface IntakeDeps {
  queue: KeyedQueue;
  dispatcher: Dispatcher;
  /** The resume point's bookkeeping; undefined with `position: false`, which keeps none. */
  progress: Progress | undefined;
  /** Saves the resume point; undefined with `position: false`. */
  keeper: PositionKeeper | undefined;
  orderBy: OrderBy;
  rest: BotRest;
  log: Logger;
  backfillLimit: number;
  /** When this process started (epoch ms): events created before it may have been handled already. */
  startedAt: number;
  /** Boards without a mark are backfilled from this time (epoch ms). */
  since: number;
  /** Starts each event's trace and counts it. */
  telemetry: Telemetry;
}

/**
 * Where gateway events enter the runtime: each is registered with the {@link Progress}, if the bot
 * keeps a resume point (so the point only passes it once its handlers finished), skipped when a stored position says it
 * was handled, and queued under its ordering key. A `ready` frame that reports a gap holds the live
 * events back while the missed messages are read over REST, so each board is still handled in order.
 */
export class Intake {
  private readonly marks = new MessageMarks();
  // Without a Progress, where a gap's backfill starts on each board: the highest seq received (a
  // message received is handled by this process, and nothing is resumed by another).
  private readonly received = new Map<string, number>();
  private held: BotEvent[] | undefined;

  /** @param deps - queue, dispatcher, progress and policy */
  constructor(private readonly deps: IntakeDeps) {}

  /** Takes one gateway event, in the order the gateway delivered them. */
  receive(event: BotEvent): void {
    if (this.held) {
      this.held.push(event);
      return;
    }
    const message = !event.unknown && event.name === 'message.create' ? event.data.message : undefined;
    if (message) {
      // Handled before a restart (at or below the stored mark), or already read back by a backfill.
      if (this.handled(message) || !this.marks.record(message)) {
        this.finish(this.begin(idOf(event)));
        return;
      }
    }
    if (!event.unknown && event.name === 'ready') {
      // A ready frame is no event of the log: its id is the stream's cursor, where the resume point
      // stands once everything before it finished (after a gap: once the missed messages are handled).
      if (event.data.gap === true) this.fillGap(event.data);
      this.finish(this.begin(idOf(event)));
      const traced = this.deps.telemetry.receive(event);
      this.deps.queue.push(undefined, () =>
        this.deps.dispatcher.dispatch(event, false, traced.begin()).finally(() => traced.end()),
      );
      return;
    }
    const ticket = this.begin(idOf(event), message);
    if (!this.deps.dispatcher.handles(event)) {
      // No handler would run (the bot's own answers, most often): counted and traced as received, and
      // done at once, without waiting for its key's turn in the queue.
      const traced = this.deps.telemetry.receive(event);
      traced.begin();
      traced.end();
      this.finish(ticket);
      return;
    }
    const created = createdAt(event);
    const replayed = created !== undefined && Date.parse(created) < this.deps.startedAt;
    void this.enqueue(orderingKey(event, this.deps.orderBy), event, replayed, ticket);
  }

  /** Queues an event's dispatch; resolves once its handlers finished. */
  private enqueue(key: string | undefined, event: BotEvent, replayed: boolean, ticket: Ticket | undefined) {
    const traced = this.deps.telemetry.receive(event);
    return new Promise<void>((resolve) => {
      this.deps.queue.push(key, () =>
        this.deps.dispatcher.dispatch(event, replayed, traced.begin()).finally(() => {
          traced.end();
          this.finish(ticket);
          resolve();
        }),
      );
    });
  }

  /** Registers work with the Progress, in arrival order; without one, only notes the message's seq. */
  private begin(eventId: string | undefined, message?: Message): Ticket | undefined {
    const { progress } = this.deps;
    if (progress) return progress.begin(eventId, message && { id: message.board_id, seq: message.seq });
    if (message) this.received.set(message.board_id, Math.max(message.seq, this.received.get(message.board_id) ?? 0));
    return undefined;
  }

  /** Marks work finished, so the resume point may move past it. */
  private finish(ticket: Ticket | undefined): void {
    if (ticket === undefined) return;
    this.deps.progress?.finish(ticket);
    this.deps.keeper?.changed();
  }

  /** Whether a message is at or below its board's stored mark (never, without a Progress). */
  private handled(message: Message): boolean {
    return this.deps.progress?.handled(message.board_id, message.seq) ?? false;
  }

  private fillGap(ready: ReadyEvent): void {
    this.held = [];
    const barrier = this.begin(undefined);
    const correlationId = randomUUID();
    const log = this.deps.log.child({ correlation_id: correlationId, phase: 'backfill' });
    let handled: Promise<unknown> = Promise.resolve();
    void collectMissedMessages(
      this.deps.rest,
      ready.board_ids,
      { lastSeq: this.deps.progress?.boards ?? this.received, since: this.deps.since },
      { limit: this.deps.backfillLimit, log, requestOptions: { requestId: correlationId, logger: log } },
    )
      .then(
        (missed) => {
          log.info(
            { messages: missed.length, boards: ready.board_ids.length },
            'gateway gap: dispatching missed messages',
          );
          this.deps.telemetry.metrics?.backfilled(missed.length);
          handled = Promise.all(missed.map((message) => this.backfilled(message)));
        },
        (error: unknown) => {
          log.error({ err: error }, 'backfill after a gateway gap failed: missed messages are not handled');
        },
      )
      .finally(() => {
        // Live events go on behind the missed ones; the resume point waits until those are handled.
        const held = this.held ?? [];
        this.held = undefined;
        for (const event of held) this.receive(event);
        void handled.then(() => this.finish(barrier));
      });
  }

  private backfilled(message: Message): Promise<void> {
    if (this.handled(message) || !this.marks.record(message)) return Promise.resolve();
    const event: BotEvent = {
      name: 'message.create',
      id: `backfill:${message.id}`,
      data: { type: 'message.create', message },
    };
    return this.enqueue(orderingKey(event, this.deps.orderBy), event, false, this.begin(undefined, message));
  }
}

/** When the event's interaction or message was created, for the events that carry one. */
function createdAt(event: BotEvent): string | undefined {
  if (event.unknown) return undefined;
  if (event.name === 'interaction.create') return event.data.interaction.created_at;
  if (event.name === 'message.create') return event.data.message.created_at;
  return undefined;
}

function idOf(event: BotEvent): string | undefined {
  return event.id === '' || event.id.startsWith('backfill:') ? undefined : event.id;
}
