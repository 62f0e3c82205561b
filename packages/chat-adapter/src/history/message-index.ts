import type { Message as BoardMessage } from '@boardbot/protocol';
import type { RestClient } from '@boardbot/rest';
import type { StateAdapter } from 'chat';

/** Where a message sits: its thread's first message, and whether the bot wrote it. */
export interface Placement {
  root: string;
  /** Whether the bot wrote it (a reply to it is a mention). */
  byBot: boolean;
}

/** A message's thread, and whether the message it replies to is the bot's. */
export interface ThreadOf {
  root: string;
  repliesToBot: boolean;
}

// Recent placements kept in memory too: the synchronous parseMessage reads them, and a reply to a
// message seen moments ago needs no state read.
const MAX_RECENT = 10_000;

/**
 * The index the platform lacks: which thread each message is in, kept in Chat's state adapter (so
 * it survives a restart with Redis) as the messages go by. A reply whose parent the index does not
 * know (older than the index, or written while nobody listened) is placed by a bounded scan of the
 * board, newest first.
 */
export class MessageIndex {
  private readonly recent = new Map<string, Placement>();

  /**
   * @param state - Chat's state adapter
   * @param prefix - the app's key prefix
   * @param ttlMs - how long a placement is kept
   * @param rest - reads the board when a parent is not indexed
   * @param botUserId - the app's user
   * @param maxScan - most messages one scan reads
   */
  constructor(
    private readonly state: StateAdapter,
    private readonly prefix: string,
    private readonly ttlMs: number,
    private readonly rest: RestClient,
    private readonly botUserId: string,
    private readonly maxScan: number,
  ) {}

  /**
   * Places a message in its thread and records it.
   * @param m - a message just seen (an event's, or one the bot posted)
   * @param root - its thread's first message, when the caller knows it
   */
  async record(m: BoardMessage, root?: string): Promise<ThreadOf> {
    const thread = root === undefined ? await this.threadOf(m) : { root, repliesToBot: false };
    const placement = { root: thread.root, byBot: m.author === this.botUserId };
    this.keep(m.id, placement);
    await this.state.set(this.key(m.id), placement, this.ttlMs);
    return thread;
  }

  /** The placement known without a read (recent messages only). @param messageId - the message */
  known(messageId: string): Placement | undefined {
    return this.recent.get(messageId);
  }

  /** The thread of a message: its own when it replies to nothing, else its parent's. @param m - the message */
  async threadOf(m: BoardMessage): Promise<ThreadOf> {
    if (m.reply_to === null) return { root: m.id, repliesToBot: false };
    const parent = this.recent.get(m.reply_to) ?? (await this.state.get<Placement>(this.key(m.reply_to)));
    if (parent) return { root: parent.root, repliesToBot: parent.byBot };
    return this.scan(m);
  }

  // Parents are older than their replies: reading back from the message finds its chain, up to the
  // bound. A chain that leaves the bound is placed under the oldest message found.
  private async scan(m: BoardMessage): Promise<ThreadOf> {
    const seen = new Map<string, BoardMessage>();
    let at: string | null = m.reply_to;
    for await (const older of this.rest.iterateMessages(m.board_id, { before: m.seq, max: this.maxScan })) {
      seen.set(older.id, older);
      while (at !== null && seen.has(at)) at = (seen.get(at) as BoardMessage).reply_to;
      if (at === null) break;
    }
    const parent = seen.get(m.reply_to as string);
    let root = m.reply_to as string;
    for (let p = parent; p?.reply_to != null && seen.has(p.reply_to); p = seen.get(p.reply_to)) root = p.reply_to;
    return { root, repliesToBot: parent?.author === this.botUserId };
  }

  private keep(id: string, placement: Placement): void {
    if (this.recent.size >= MAX_RECENT) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(id, placement);
  }

  private key(messageId: string): string {
    return `${this.prefix}msg:${messageId}`;
  }
}
