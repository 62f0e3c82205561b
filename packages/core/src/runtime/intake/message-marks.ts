import type { Message } from '@boardbot/protocol';

/** How many dispatched message ids are remembered to dedupe a backfill. */
const REMEMBERED = 10_000;

/**
 * The ids of recently dispatched messages, so that a message delivered live and read back by a
 * backfill is handled once.
 */
export class MessageMarks {
  private readonly seen = new Set<string>();
  // The remembered ids in a ring, oldest at `next`: deleting a Set's first entry again and again
  // makes V8 walk over the deleted slots on every `values().next()`.
  private readonly ring: (string | undefined)[] = new Array(REMEMBERED);
  private next = 0;

  /**
   * Records a dispatched `message.create`.
   * @returns false when this message was already dispatched
   */
  record(message: Pick<Message, 'id'>): boolean {
    if (this.seen.has(message.id)) return false;
    const oldest = this.ring[this.next];
    if (oldest !== undefined) this.seen.delete(oldest);
    this.ring[this.next] = message.id;
    this.next = (this.next + 1) % REMEMBERED;
    this.seen.add(message.id);
    return true;
  }
}
