import type { Message } from '@boardbot/protocol';
import type { BotEvent } from '../../kernel/event.js';
import type { BackfillMarks } from '../intake/backfill.js';
import type { BackfillPlace, IntakeSink } from '../intake/intake-sink.js';
import type { PositionKeeper } from '../position/position-keeper.js';
import type { Progress, Ticket } from '../position/progress.js';
import type { SourceHost } from './event-source.js';

/**
 * The {@link IntakeSink} of the gateway source, in a bot that handles every event itself: each event
 * is registered with the {@link Progress} in arrival order (so the resume point only passes it once
 * its handlers finished), then handed to the bot (`SourceHost.deliver`); "done" is the end of its
 * handlers.
 */
export class ProgressSink implements IntakeSink {
  // Without a Progress, where a gap's backfill starts on each board: the highest seq received (a
  // message received is handled by this process, and nothing is resumed by another).
  private readonly received = new Map<string, number>();
  readonly gapMessage = 'gateway gap: dispatching missed messages';

  /**
   * @param host - the bot
   * @param progress - the resume point's bookkeeping; undefined with `position: false`, which keeps none
   * @param keeper - saves the resume point; undefined with `position: false`
   * @param since - boards without a mark are backfilled from this time (epoch ms)
   */
  constructor(
    private readonly host: SourceHost,
    private readonly progress: Progress | undefined,
    private readonly keeper: PositionKeeper | undefined,
    private readonly since: number,
  ) {}

  backfillMarks(): BackfillMarks {
    return { lastSeq: this.progress?.boards ?? this.received, since: this.since };
  }

  handled(message: Message): boolean {
    return this.progress?.handled(message.board_id, message.seq) ?? false;
  }

  ready(event: BotEvent): void {
    // Its id is the stream's cursor: the resume point stands there once everything before it finished
    // (after a gap: once the missed messages are handled).
    this.finish(this.begin(event));
    void this.host.deliver(event);
  }

  skip(event: BotEvent): void {
    // Its message's seq is not registered again: it was handled already, or is in flight as received.
    this.finish(this.begin(event, false));
  }

  take(event: BotEvent, place?: BackfillPlace): Promise<void> {
    const ticket = this.begin(event);
    return this.host.deliver(event, place).then((outcome) => {
      // Abandoned at stop (a burst still held): not done, the next process handles it.
      if (!outcome.abandoned) this.finish(ticket);
    });
  }

  holdGap(): () => void {
    const barrier = this.progress?.begin(undefined);
    return () => this.finish(barrier);
  }

  /** Registers work with the Progress, in arrival order; without one, only notes the message's seq. */
  private begin(event: BotEvent, withSeq = true): Ticket | undefined {
    const message = withSeq && !event.unknown && event.name === 'message.create' ? event.data.message : undefined;
    const eventId = event.id === '' || event.id.startsWith('backfill:') ? undefined : event.id;
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
}
