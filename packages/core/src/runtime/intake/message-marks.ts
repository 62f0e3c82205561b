import type { Message } from '@boardbot/protocol';

/** How many dispatched message ids are remembered at least to dedupe a backfill (at most twice as many). */
const REMEMBERED = 10_000;

/**
 * The ids of recently dispatched messages, so that a message delivered live and read back by a
 * backfill is handled once.
 */
export class MessageMarks {
  // Two generations, the current one filling up to REMEMBERED and the one before: when the current
  // one is full it becomes the one before and the oldest is dropped whole. Each message costs one or
  // two lookups and one insert; deleting the oldest id on every message (a ring over one Set) was
  // a twentieth of an event's dispatch CPU (core's README, issue 41).
  private current = new Set<string>();
  private before = new Set<string>();

  /**
   * Records a dispatched `message.create`.
   * @returns false when this message was already dispatched
   */
  record(message: Pick<Message, 'id'>): boolean {
    const { id } = message;
    if (this.current.has(id) || this.before.has(id)) return false;
    if (this.current.size === REMEMBERED) {
      this.before = this.current;
      this.current = new Set();
    }
    this.current.add(id);
    return true;
  }
}
