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

  /**
   * Records a dispatched `message.create`.
   * @returns false when this message was already dispatched
   */
  record(message: Message): boolean {
    if (this.seen.has(message.id)) return false;
    this.seen.add(message.id);
    // Set keeps insertion order: drop the oldest id once full.
    if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.values().next().value as string);
    const last = this.lastSeq.get(message.board_id) ?? 0;
    if (message.seq > last) this.lastSeq.set(message.board_id, message.seq);
    return true;
  }
}
