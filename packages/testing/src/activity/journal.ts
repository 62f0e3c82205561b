import type { InteractionView, Message, ShownInteraction } from '@boardbot/emulator/control';
import type { Waiters } from '../waiting/waiters.js';

/** One frame of the emulator's activity stream, as the harness keeps it. */
export interface ActivityRecord {
  /** The frame's id: strictly increasing, the order in which the platform saw things happen. */
  id: number;
  /** The event name, e.g. `message.create`, `interaction.update`. */
  name: string;
  /** The message of `message.create`, `message.edit` and `message.delete` (the tombstone). */
  message?: Message;
  /** The invocation of `interaction.create` (without its token). */
  interaction?: ShownInteraction;
  /** The interaction and its answers, of `interaction.update`. */
  view?: InteractionView;
}

/**
 * Everything that happened on the platform since the harness started watching, in order: the
 * shared memory of every wait and of every failure report.
 */
export class Journal {
  private readonly list: ActivityRecord[] = [];
  private last = 0;

  /** @param waiters - told about every new record */
  constructor(private readonly waiters: Waiters) {}

  /** Every record so far, oldest first. */
  get records(): readonly ActivityRecord[] {
    return this.list;
  }

  /** Id of the latest record (0 before any). */
  get lastId(): number {
    return this.last;
  }

  /** Adds a record and wakes the waits. */
  push(record: ActivityRecord): void {
    this.list.push(record);
    if (record.id > this.last) this.last = record.id;
    this.waiters.notify();
  }

  /** Notes a frame that carries nothing to keep (state updates) so barriers still move. */
  advance(id: number): void {
    if (id > this.last) this.last = id;
    this.waiters.notify();
  }
}
