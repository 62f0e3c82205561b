import type { Message } from '@boardbot/protocol';
import type { Dispatcher } from '../../dispatch/dispatcher.js';
import type { KeyedQueue } from '../../dispatch/keyed-queue.js';
import { type OrderBy, orderingKey } from '../../dispatch/ordering.js';
import type { BotEvent, EventOrigin } from '../../kernel/event.js';
import { type DispatchOutcome, releasedOutcome } from '../../kernel/outcome.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import type { PositionKeeper } from '../position/position-keeper.js';
import type { Progress, Ticket } from '../position/progress.js';
import type { BackfillMarks } from './backfill.js';
import type { BackfillPlace, IntakeSink } from './intake-sink.js';
import { dispatchTraced } from './traced-dispatch.js';

/** What a one-process bot's sink works with. */
export interface DispatchSinkDeps {
  dispatcher: Dispatcher;
  telemetry: Telemetry;
  queue: KeyedQueue;
  /** The resume point's bookkeeping; undefined with `position: false`, which keeps none. */
  progress: Progress | undefined;
  /** Saves the resume point; undefined with `position: false`. */
  keeper: PositionKeeper | undefined;
  orderBy: OrderBy;
  /** When this process started (epoch ms): events created before it may have been handled already. */
  startedAt: number;
  /** Boards without a mark are backfilled from this time (epoch ms). */
  since: number;
}

/**
 * The {@link IntakeSink} of a bot that handles every event itself: each event is registered with the
 * {@link Progress} in arrival order (so the resume point only passes it once its handlers finished),
 * queued under its ordering key and dispatched; "done" is the end of its handlers.
 */
export class DispatchSink implements IntakeSink {
  // Without a Progress, where a gap's backfill starts on each board: the highest seq received (a
  // message received is handled by this process, and nothing is resumed by another).
  private readonly received = new Map<string, number>();
  /** The resume point's tickets of the messages set aside, by message id, until they are taken again. */
  private readonly aside = new Map<string, Ticket | undefined>();
  readonly gapMessage = 'gateway gap: dispatching missed messages';

  /** @param deps - queue, dispatcher, progress and policy */
  constructor(private readonly deps: DispatchSinkDeps) {}

  backfillMarks(): BackfillMarks {
    return { lastSeq: this.deps.progress?.boards ?? this.received, since: this.deps.since };
  }

  handled(message: Message): boolean {
    return this.deps.progress?.handled(message.board_id, message.seq) ?? false;
  }

  ready(event: BotEvent): void {
    // Its id is the stream's cursor: the resume point stands there once everything before it finished
    // (after a gap: once the missed messages are handled).
    this.finish(this.begin(event, 'live'));
    const traced = this.deps.telemetry.receive(event, 'live');
    const routed = this.deps.dispatcher.route(event);
    if (routed) this.deps.queue.push(undefined, () => dispatchTraced(this.deps.dispatcher, routed, {}, traced));
    else void dispatchTraced(this.deps.dispatcher, undefined, {}, traced);
  }

  skip(event: BotEvent): void {
    // Its message's seq is not registered again: it was handled already, or is in flight as received.
    this.finish(this.begin(event, 'live', false));
  }

  take(event: BotEvent, place?: BackfillPlace): Promise<void> {
    // A message set aside and read back over REST has its ticket already, from its place in the line.
    const aside = this.aside.size > 0 && this.aside.has(messageIdOf(event));
    const origin = place === undefined && !aside ? 'live' : 'backfill';
    const ticket = aside ? this.unsetAside(event) : this.begin(event, origin);
    const traced = this.deps.telemetry.receive(event, origin);
    // Whether any handler runs for it is decided once, here: what the kinds would run travels with it.
    const routed = this.deps.dispatcher.route(event);
    if (!routed) {
      // No handler would run (the bot's own answers, most often): counted and traced as received, and
      // done at once, without waiting for its key's turn in the queue.
      void dispatchTraced(this.deps.dispatcher, undefined, {}, traced);
      this.finish(ticket);
      return Promise.resolve();
    }
    const replayed = place === undefined && createdBefore(event, this.deps.startedAt);
    return new Promise<void>((resolve) => {
      this.deps.queue.push(orderingKey(event, this.deps.orderBy), async () => {
        const outcome = await dispatchTraced(this.deps.dispatcher, routed, { replayed, origin }, traced);
        const done = (released: DispatchOutcome) => {
          // Abandoned at stop (a burst still held): not done, the next process handles it.
          if (!released.abandoned) this.finish(ticket);
          resolve();
        };
        // A burst holding the message frees its board's slot now, and the resume point once it ran;
        // nothing held (the usual case) is done now, without a promise more per event.
        if (outcome.held && outcome.held.length > 0) void releasedOutcome(outcome).then(done);
        else done(outcome);
      });
    });
  }

  holdGap(): () => void {
    const barrier = this.deps.progress?.begin(undefined);
    return () => this.finish(barrier);
  }

  setAside(event: BotEvent): boolean {
    if (!this.deps.dispatcher.route(event)) return false;
    // Registered now, at its place in the line: the resume point stays before it until it is taken.
    this.aside.set(messageIdOf(event), this.begin(event, 'live'));
    return true;
  }

  asideGone(messageId: string): void {
    const ticket = this.aside.get(messageId);
    this.aside.delete(messageId);
    this.finish(ticket);
  }

  /** The ticket a message set aside got, now that it is taken again. */
  private unsetAside(event: BotEvent): Ticket | undefined {
    const id = messageIdOf(event);
    const ticket = this.aside.get(id);
    this.aside.delete(id);
    return ticket;
  }

  /** Registers work with the Progress, in arrival order; without one, only notes the message's seq. */
  private begin(event: BotEvent, origin: EventOrigin, withSeq = true): Ticket | undefined {
    const message = withSeq && !event.unknown && event.name === 'message.create' ? event.data.message : undefined;
    const { progress } = this.deps;
    // A message read back after a gap has no gateway id: the resume point does not move by it.
    const eventId = event.id === '' || origin !== 'live' ? undefined : event.id;
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
}

/** The id of a `message.create`'s message; `''` for any other event. */
function messageIdOf(event: BotEvent): string {
  return !event.unknown && event.name === 'message.create' ? event.data.message.id : '';
}

/** Whether the event's interaction or message was created before `time` (epoch ms). */
export function createdBefore(event: BotEvent, time: number): boolean {
  if (event.unknown) return false;
  const created =
    event.name === 'interaction.create'
      ? event.data.interaction.created_at
      : event.name === 'message.create'
        ? event.data.message.created_at
        : undefined;
  return created !== undefined && Date.parse(created) < time;
}
