import type { Message } from '@boardbot/protocol';

/** How many dispatched message ids are remembered to dedupe a backfill. */
const REMEMBERED = 10_000;

/**
 * What the bot has seen of each board: the highest `seq` dispatched (where a backfill stops) and
 * the ids of recent messages (so a backfilled message already delivered live is not handled twice).
 */
export class MessageMarks {
  readonly lastSeq = new Map<string, number>();
  private readonly seen = new Set<string>();
  // The remembered ids in a ring, oldest at `next`: deleting a Set's first entry again and again
  // makes V8 walk over the deleted slots on every `values().next()`.
  private readonly ring: (string | undefined)[] = new Array(REMEMBERED);
  private next = 0;

  /**
   * Records a dispatched `message.create`.
   * @returns false when this message was already dispatched
   */
  record(message: Message): boolean {
    if (this.seen.has(message.id)) return false;
    const oldest = this.ring[this.next];
    if (oldest !== undefined) this.seen.delete(oldest);
    this.ring[this.next] = message.id;
    this.next = (this.next + 1) % REMEMBERED;
    this.seen.add(message.id);
    const last = this.lastSeq.get(message.board_id) ?? 0;
    if (message.seq > last) this.lastSeq.set(message.board_id, message.seq);
    return true;
  }
}
