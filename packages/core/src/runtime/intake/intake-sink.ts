import type { Message } from '@boardbot/protocol';
import type { BotEvent } from '../../kernel/event.js';
import type { BackfillMarks } from './backfill.js';

/** Where a message read back over REST after a gap stands: after the gap's cursor, in its order. */
export interface BackfillPlace {
  /** The id of the `ready` frame that reported the gap. */
  cursor: string;
  /** The message's place among the missed ones, from 1 (oldest first). */
  index: number;
}

/**
 * Where the `Intake` hands the events it accepted, and what it asks about the resume point.
 * In one process the sink dispatches each event and moves the resume point once its handlers
 * finished; with replicas (`@boardbot/redis`) it appends each to the partition streams, and the
 * consumers' acknowledgements move the shared point.
 */
export interface IntakeSink {
  /**
   * The log line of a gap whose missed messages are passed on (the operators' docs quote each):
   * `gateway gap: dispatching missed messages` in one process.
   */
  readonly gapMessage: string;
  /** Per board, where a gap's backfill starts reading back. */
  backfillMarks(): BackfillMarks;
  /** Whether a message is at or below its board's stored mark, so handled already (it is dropped). */
  handled(message: Message): boolean;
  /**
   * A `ready` frame: no event of the log (its id is the stream's cursor), but the bot's own
   * `@OnEvent('ready')` listeners hear it.
   */
  ready(event: BotEvent): void;
  /**
   * An event to pass on, in the order the intake accepted them.
   * @param event - the event (a missed message becomes a `message.create` with a `backfill:` id)
   * @param place - set for a message read back after a gap
   * @returns settles once the sink is done with it (handled, or appended)
   */
  take(event: BotEvent, place?: BackfillPlace): Promise<void>;
  /** An event dropped as handled already or as a duplicate: done, the resume point may pass it. */
  skip(event: BotEvent): void;
  /**
   * A gap opened: holds the resume point at the gap until the returned function is called (once the
   * missed messages were taken and are done).
   */
  holdGap(): () => void;
  /**
   * A `message.create` set aside, its board over its share of the intake: the resume point stays
   * before it until it was read back and taken (`take` with the same message), or is gone. A sink
   * without it gets no share: the intake takes every event.
   * @returns false when the event needs no room (no handler would run for it: the bot's own answers,
   * most often): it is not set aside, and the intake takes it now
   */
  setAside?(event: BotEvent): boolean;
  /**
   * A message set aside was not found when read back (deleted meanwhile): done, the resume point may
   * pass it.
   * @param messageId - its id
   */
  asideGone?(messageId: string): void;
}

/** The intake as a source sees it: where the events of one gateway connection go. */
export interface EventIntake {
  /** Takes one gateway event, in the order the gateway delivered them. */
  receive(event: BotEvent): void;
  /** Takes nothing more (the connection closed): a backfill still running passes nothing on. */
  close(): void;
}
